// The only reader of process.env for the server processes (web, worker, CLI).
import { z } from 'zod';

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const optional = () => z.preprocess(emptyAsUndefined, z.string().optional());

const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  DATABASE_URL: optional(),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('.data')),
  BASE_URL: optional(),
  BETTER_AUTH_SECRET: optional(),
  SMTP_URL: optional(),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().default('Mailvet <no-reply@mailvet.local>')),
  PROBE_URLS: optional(),
  PROBE_TOKEN: optional(),
  GEO_URL: z.preprocess(emptyAsUndefined, z.string().default('https://ipapi.co/json/')),
  STORAGE_DIR: optional(),
  WORKER_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).default(4)),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Lets webhooks go to private/loopback addresses and plain http (tests and local development only). */
  WEBHOOK_ALLOW_PRIVATE: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  // Razorpay (billing). Without both keys, outside production, Billing uses the labelled local test checkout.
  RAZORPAY_KEY_ID: optional(),
  RAZORPAY_KEY_SECRET: optional(),
  /** Razorpay API origin; tests point it at a fake server. */
  RAZORPAY_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default('https://api.razorpay.com')),
});

export type Env = z.infer<typeof envSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
