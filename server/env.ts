// The only reader of process.env for the server processes (web, worker, CLI).
import net from 'node:net';
import { z } from 'zod';
import { probeUrl } from '../probe/client/probe-client';
import { MIN_PROBE_TOKEN_LENGTH } from '../probe/env';

/** Empty or spaces only (`PORT= ` in an .env file) is unset: a number read from it was 0 (PORT: a random port). */
const emptyAsUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = () => z.preprocess(emptyAsUndefined, z.string().optional());
/** A URL with one of the given schemes; a typo stops the start with the variable's name, not a failure later. */
const urlOf = (schemes: string[], example: string) =>
  z.url({ protocol: new RegExp(`^(${schemes.join('|')})$`), error: `must be a ${schemes.map((x) => `${x}://`).join(' or ')} URL (e.g. ${example})` });

/** `host:port` DNS servers, comma-separated: IP addresses (IPv6 in brackets with a port), as c-ares takes them. */
const dnsServerList = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined))
    .superRefine((list, ctx) => {
      for (const entry of list ?? []) {
        const m = /^(?:\[([^\]]+)\]|([^:]+)|([^[\]]*:[^[\]]*))(?::(\d{1,5}))?$/.exec(entry);
        const [host, port] = m ? [m[1] ?? m[2] ?? m[3] ?? '', m[4]] : ['', undefined];
        const bareV6 = m?.[3] !== undefined;
        const ok = m !== null && net.isIP(host) !== 0 && (bareV6 ? port === undefined : true) && (port === undefined || (Number(port) >= 1 && Number(port) <= 65535));
        if (!ok) ctx.addIssue({ code: 'custom', message: `"${entry}" is not a DNS server address (an IP address, with :port if not 53; IPv6 as [::1]:53)` });
      }
    }),
);
/** Each probe daemon URL as the client takes it (probeUrl), so a mistyped one stops the start instead of failing every check. */
const probeUrls = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      for (const raw of (v ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
        try {
          probeUrl(raw);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
        }
      }
    }),
);

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** What is wrong with one entry of TRUST_PROXY (a name, an address or a range), or null. */
function proxyEntryProblem(entry: string): string | null {
  if (PROXY_NAMES.has(entry)) return null;
  const [address = '', range, ...more] = entry.split('/');
  const family = net.isIP(address);
  const bits = family === 4 ? 32 : 128;
  const rangeOk = range === undefined || (/^\d{1,3}$/.test(range) ? Number(range) <= bits : family === 4 && net.isIPv4(range));
  if (family !== 0 && more.length === 0 && rangeOk) return null;
  return `"${entry}" is not loopback, linklocal, uniquelocal, an IP address or a range (e.g. 10.0.0.0/8)`;
}
/**
 * Express's `trust proxy`: a hop count (digits, passed as a number: Express reads a string "1" as
 * the address 0.0.0.1, which would put every client behind the proxy in one rate-limit bucket) or
 * comma-separated names, addresses and ranges. `true` (trust every hop) is refused: any client
 * could then choose its own address.
 */
const trustProxy = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined || /^\d+$/.test(v.trim())) return;
      if (v.trim() === 'true') return void ctx.addIssue({ code: 'custom', message: 'true would trust every hop, so any client could choose its own address: give the proxy hop count (e.g. 1), its address or range, or loopback' });
      for (const entry of v.split(',').map((x) => x.trim())) {
        const problem = proxyEntryProblem(entry);
        if (problem) ctx.addIssue({ code: 'custom', message: `${problem}; or a hop count such as 1` });
      }
    })
    .transform((v) => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v)),
);

export const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  /** Unset: 127.0.0.1 with developer tools on (their test-only routes never face the LAN), else every interface. */
  HOST: optional(),
  DATABASE_URL: optional(),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('.data')),
  /** The app's origin: every link in mail is this plus a path, and the app is served from the root. */
  BASE_URL: z.preprocess(
    emptyAsUndefined,
    urlOf(['http', 'https'], 'https://mailvet.example.com')
      .refine((v) => {
        if (!URL.canParse(v)) return true; // the URL check above says what is wrong
        const u = new URL(v);
        return u.pathname === '/' && !u.search && !u.hash && !v.endsWith('#') && !v.endsWith('?') && !u.username && !u.password;
      }, 'must be the app\'s origin only: scheme, host and optional port, no path, query, fragment or credentials (e.g. https://mailvet.example.com); the app is served from the root')
      .optional(),
  ),
  BETTER_AUTH_SECRET: optional(),
  SMTP_URL: z.preprocess(emptyAsUndefined, urlOf(['smtp', 'smtps'], 'smtp://user:pass@relay.example.com:587').optional()),
  /**
   * Production without SMTP_URL stores outgoing mail and never sends it (nobody could verify an
   * address or reset a password), so it refuses to start unless this says that is meant (the benches).
   */
  MAIL_STORE_ONLY: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().default('Mailvet <no-reply@mailvet.local>')),
  PROBE_URLS: probeUrls,
  PROBE_TOKEN: optional(),
  /** IP geolocation asked by the server for the caller's country (`{ip}` is replaced by the caller's public IP). */
  GEO_URL: z.preprocess(emptyAsUndefined, urlOf(['http', 'https'], 'https://ipapi.co/{ip}/json/').default('https://ipapi.co/{ip}/json/')),
  STORAGE_DIR: optional(),
  WORKER_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).default(4)),
  /** Bulk chunks one account may have queued or running at once, over all worker processes (features/jobs/chunk-dispatch.ts). */
  BULK_CHUNKS_PER_ACCOUNT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(256).default(4)),
  TRUST_PROXY: trustProxy,
  /** Lets webhooks go to private/loopback addresses and plain http (tests and local development only). */
  WEBHOOK_ALLOW_PRIVATE: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  /** Encrypts each account's webhook signing secret (32 bytes: 64 hex or 44 base64 characters). Required in production. */
  WEBHOOK_SECRET_KEY: optional(),
  /** The whole exchange of one webhook delivery (connect, headers, body) must end within this. */
  WEBHOOK_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(500).max(60_000).default(10_000)),
  /** DNS servers (host:port, comma-separated) that webhook hosts are resolved with (c-ares, never the thread pool); default the system's. */
  WEBHOOK_DNS_SERVERS: dnsServerList,
  /** Webhook deliveries that may run at once in a worker process (their own runner, apart from bulk jobs). */
  WEBHOOK_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).default(4)),
  // Razorpay (billing). Without both keys, outside production, Billing uses the labelled local test checkout.
  RAZORPAY_KEY_ID: optional(),
  RAZORPAY_KEY_SECRET: optional(),
  /** DNS servers (host:port, comma-separated) for custom-domain verification; default the system's. */
  BRANDING_DNS_SERVERS: dnsServerList,
  /** Secret of the Razorpay webhook (Dashboard → Webhooks) posting to /api/billing/razorpay/webhook. */
  RAZORPAY_WEBHOOK_SECRET: optional(),
  /** Razorpay API origin; tests point it at a fake server. */
  RAZORPAY_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default('https://api.razorpay.com')),
  /**
   * Developer tools: the dev outbox (/dev/outbox) and the local test checkout. Off unless asked for:
   * `npm start` turns it on with the embedded database, NODE_ENV=test has it on; production refuses it.
   */
  DEV_TOOLS: z.preprocess(emptyAsUndefined, z.stringbool().optional()),
  /**
   * Where the public API's per-second buckets live: `memory` in each web process (no database write
   * per request; the default with one web process), `postgres` in a table every process shares (the
   * default with WEB_PROCESSES > 1, where per-process shares of ⌈rate ÷ n⌉ would add up to more
   * than the plan's rate). `memory` with several processes is the operator's explicit choice.
   */
  API_RATE_LIMIT_STORE: z.preprocess(emptyAsUndefined, z.enum(['memory', 'postgres']).optional()),
  /** How many web processes serve /v1 behind the balancer (divides the in-memory API rate). */
  WEB_PROCESSES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(256).default(1)),
  /**
   * Sign-up, password-reset and verification-mail answers take at least this many ms, so their timing
   * does not tell whether the address has an account. Default 1000; 0 (off) when NODE_ENV=test.
   */
  AUTH_ANSWER_FLOOR_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(10_000).optional()),
  /** better-auth's per-IP rate limit (database-backed). On unless NODE_ENV=test; production refuses false. */
  AUTH_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.stringbool().optional()),
});

type ParsedEnv = z.infer<typeof envSchema>;
export type Env = Omit<ParsedEnv, 'HOST' | 'DEV_TOOLS' | 'AUTH_RATE_LIMIT' | 'API_RATE_LIMIT_STORE' | 'AUTH_ANSWER_FLOOR_MS'> & {
  HOST: string;
  DEV_TOOLS: boolean;
  AUTH_RATE_LIMIT: boolean;
  API_RATE_LIMIT_STORE: 'memory' | 'postgres';
  AUTH_ANSWER_FLOOR_MS: number;
};

/** better-auth only warns below this; a short secret lets verification links and signed cookies be forged. */
export const MIN_AUTH_SECRET_LENGTH = 32;

/**
 * Settings that would open a hole in production (test paths, private-network access, no brute-force
 * limit) are refused at start rather than honoured. (PROBE_ALLOW_PRIVATE_NETWORKS: probe/env.ts.)
 */
/** The shortest answer floor production accepts: a new address's sign-up (user, account, mail) must fit under it. */
const MIN_PRODUCTION_ANSWER_FLOOR_MS = 500;

export function productionRefusals(env: ParsedEnv): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const out: string[] = [];
  if (!env.BASE_URL) out.push('BASE_URL: the public URL of the app is required (links in mail and the sign-in origin would otherwise point at localhost)');
  else if (!env.BASE_URL.startsWith('https://')) out.push('BASE_URL: must be https:// in production (session cookies are marked Secure only on https, and would otherwise travel in clear text)');
  if (env.BETTER_AUTH_SECRET !== undefined && env.BETTER_AUTH_SECRET.length < MIN_AUTH_SECRET_LENGTH) {
    out.push(`BETTER_AUTH_SECRET: must be at least ${MIN_AUTH_SECRET_LENGTH} characters (it signs session cookies, verification links and two-factor cookies; e.g. openssl rand -base64 32)`);
  }
  if (env.PROBE_TOKEN !== undefined && env.PROBE_TOKEN.length < MIN_PROBE_TOKEN_LENGTH) {
    out.push(`PROBE_TOKEN: must be at least ${MIN_PROBE_TOKEN_LENGTH} characters (the probe daemons take it too, and refuse a shorter one in production: a guessable token lets anyone who reaches a daemon probe through it; e.g. openssl rand -hex 32)`);
  }
  if (!env.SMTP_URL && !env.MAIL_STORE_ONLY) {
    out.push('SMTP_URL: required in production (smtp://user:pass@host:587 or smtps://…:465): without a relay, verification and password-reset mail is stored and never sent, so nobody can verify an address (MAIL_STORE_ONLY=true runs without mail on purpose, as the benches do)');
  }
  if (env.DEV_TOOLS === true) out.push('DEV_TOOLS: the dev outbox and test checkout cannot run in production');
  if (env.WEBHOOK_ALLOW_PRIVATE) out.push('WEBHOOK_ALLOW_PRIVATE: webhooks to private/loopback addresses are refused in production');
  // The webhook is believed on its HMAC alone (a forged subscription.charged upgrades a plan), and the
  // secret is whatever was typed in Razorpay's Dashboard (its docs' example: 12345).
  if (env.RAZORPAY_WEBHOOK_SECRET !== undefined && env.RAZORPAY_WEBHOOK_SECRET.length < MIN_AUTH_SECRET_LENGTH) {
    out.push(`RAZORPAY_WEBHOOK_SECRET: must be at least ${MIN_AUTH_SECRET_LENGTH} characters (a guessable one lets anyone forge Razorpay's webhooks: a forged subscription.charged upgrades a plan for free; make one with openssl rand -hex 32 and set it as the webhook's Secret in the Razorpay Dashboard)`);
  }
  if (env.RAZORPAY_KEY_ID && !env.RAZORPAY_WEBHOOK_SECRET) out.push('RAZORPAY_WEBHOOK_SECRET: Razorpay keys are set but webhooks could not be verified (renewals, failures and refunds would be lost)');
  if (!env.RAZORPAY_BASE_URL.startsWith('https://')) out.push('RAZORPAY_BASE_URL: must be https:// in production (the key secret goes with every call); plain http is for the tests\' local fake');
  if (env.AUTH_RATE_LIMIT === false) out.push('AUTH_RATE_LIMIT: the sign-in rate limit cannot be switched off in production');
  if (env.AUTH_ANSWER_FLOOR_MS !== undefined && env.AUTH_ANSWER_FLOOR_MS < MIN_PRODUCTION_ANSWER_FLOOR_MS) {
    out.push(`AUTH_ANSWER_FLOOR_MS: must be at least ${MIN_PRODUCTION_ANSWER_FLOOR_MS} in production (below it, how long sign-up and reset answers take tells which addresses have an account; 0 is for the tests)`);
  }
  return out;
}

/** `laptop`: `npm start`, where DEV_TOOLS defaults to on with the embedded database (no DATABASE_URL). */
export function readEnv(source: NodeJS.ProcessEnv = process.env, o: { laptop?: boolean } = {}): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  // One Razorpay key without the other would quietly fall back (to the labelled test checkout with
  // developer tools on, to "payments unavailable" without them): a misspelt name stops the start.
  if (!parsed.data.RAZORPAY_KEY_ID !== !parsed.data.RAZORPAY_KEY_SECRET) {
    const missing = parsed.data.RAZORPAY_KEY_ID ? 'RAZORPAY_KEY_SECRET' : 'RAZORPAY_KEY_ID';
    throw new Error(`Invalid environment:\n  ${missing}: required with ${missing === 'RAZORPAY_KEY_ID' ? 'RAZORPAY_KEY_SECRET' : 'RAZORPAY_KEY_ID'} (Razorpay takes payments only with both keys)`);
  }
  if (parsed.data.SMTP_URL && parsed.data.MAIL_STORE_ONLY) throw new Error('Invalid environment:\n  MAIL_STORE_ONLY: cannot be true with SMTP_URL set (mail would be sent; choose one)');
  if (parsed.data.PROBE_URLS && !parsed.data.PROBE_TOKEN) throw new Error('Invalid environment:\n  PROBE_TOKEN: required with PROBE_URLS (the bearer token the probe daemons expect)');
  const refused = productionRefusals(parsed.data);
  if (refused.length > 0) throw new Error(`Refused in production (NODE_ENV=production):\n${refused.map((l) => `  ${l}`).join('\n')}`);
  const e = parsed.data;
  const devTools = e.DEV_TOOLS ?? (e.NODE_ENV === 'test' || (o.laptop === true && !e.DATABASE_URL && e.NODE_ENV !== 'production'));
  return {
    ...e,
    DEV_TOOLS: devTools,
    // The dev outbox and the test checkout are for this machine: with them on, an unset HOST binds
    // loopback only (an explicit HOST is honoured; their routes still answer loopback callers only).
    HOST: e.HOST ?? (devTools ? '127.0.0.1' : '0.0.0.0'),
    AUTH_RATE_LIMIT: e.AUTH_RATE_LIMIT ?? e.NODE_ENV !== 'test',
    AUTH_ANSWER_FLOOR_MS: e.AUTH_ANSWER_FLOOR_MS ?? (e.NODE_ENV === 'test' ? 0 : 1000),
    API_RATE_LIMIT_STORE: e.API_RATE_LIMIT_STORE ?? (e.WEB_PROCESSES > 1 ? 'postgres' : 'memory'),
  };
}
