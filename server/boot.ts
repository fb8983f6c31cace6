// Builds the shared dependencies of a server process from its environment.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createDb, createPool } from '../db/client';
import { migrate } from '../db/migrate';
import { authSchemaOptions, createAuth } from './auth/auth';
import type { AppDeps } from './deps';
import type { Env } from './env';
import { createMailer } from './mail/mailer';
import { webhookEncryptionKey } from './features/webhooks/webhook-secret';
import { setAccountChunkWindow } from './features/jobs/chunk-dispatch';

/** BETTER_AUTH_SECRET, or outside production a random one kept in DATA_DIR so sessions survive restarts. */
function authSecret(env: Env): string {
  if (env.BETTER_AUTH_SECRET) return env.BETTER_AUTH_SECRET;
  if (env.NODE_ENV === 'production') throw new Error('BETTER_AUTH_SECRET must be set in production');
  const file = path.resolve(env.DATA_DIR, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(32).toString('hex');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export interface BootOptions {
  env: Env;
  databaseUrl: string;
  probe: { urls: string[]; token: string };
  /** Public URL of the web app (links in mail); defaults to BASE_URL or http://localhost:PORT. */
  baseURL?: string;
  poolSize?: number;
  runMigrations?: boolean;
}

export async function createDeps(o: BootOptions): Promise<AppDeps> {
  const { env } = o;
  const pool = createPool(o.databaseUrl, o.poolSize ?? 20);
  const db = createDb(pool);
  const baseURL = (o.baseURL ?? env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const secret = authSecret(env);
  webhookEncryptionKey(env, secret); // refuses a missing (production) or malformed WEBHOOK_SECRET_KEY at start
  setAccountChunkWindow(env.BULK_CHUNKS_PER_ACCOUNT);
  if (o.runMigrations ?? true) await migrate({ db, pool, authOptions: authSchemaOptions() });
  const mailer = createMailer({ db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM });
  const auth = createAuth({ pool, db, mailer, baseURL, secret, production: env.NODE_ENV === 'production', rateLimit: env.AUTH_RATE_LIMIT, answerFloorMs: env.AUTH_ANSWER_FLOOR_MS });
  return {
    env,
    pool,
    db,
    auth,
    mailer,
    baseURL,
    storageDir: path.resolve(env.STORAGE_DIR ?? path.join(env.DATA_DIR, 'storage')),
    probe: o.probe,
  };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await deps.db.destroy().catch(() => undefined);
}
