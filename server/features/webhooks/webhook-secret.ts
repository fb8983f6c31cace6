// Each account's webhook signing secret. A rotated secret is random (`whsec_` + 32 random bytes,
// base64url), stored only as AES-256-GCM ciphertext under WEBHOOK_SECRET_KEY (the workers must sign
// with it, so it cannot be hashed), shown once in the rotate answer, and from then on the only secret
// that signs: the old one stops at once (retries of pending deliveries are signed with the new one).
// An account gets its first secret the first time someone who manages webhooks opens the API Keys page
// (shown in full in that one answer) or when its first webhook is signed, whichever comes first.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../../db/client';
import type { AppDeps } from '../../deps';
import type { Env } from '../../env';
import { writeAudit } from '../audit/audit';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const CIPHER = 'aes-256-gcm';
const FORMAT = 'v1';

/** WEBHOOK_SECRET_KEY as 32 bytes (64 hex characters or base64 of 32 bytes), or null when it is not one. */
export function parseSecretKey(raw: string): Buffer | null {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const b = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === KEY_BYTES) return b;
  }
  return null;
}

/**
 * The key that encrypts signing secrets. Production requires WEBHOOK_SECRET_KEY (refused at start
 * without it, server/boot.ts); elsewhere an unset key is derived from the server secret, so a laptop
 * and the tests need no set-up.
 */
export function webhookEncryptionKey(env: Pick<Env, 'WEBHOOK_SECRET_KEY' | 'NODE_ENV'>, serverSecret: string | undefined): Buffer {
  if (env.WEBHOOK_SECRET_KEY) {
    const key = parseSecretKey(env.WEBHOOK_SECRET_KEY);
    if (!key) throw new Error('WEBHOOK_SECRET_KEY must be 32 bytes: 64 hex characters or 44 base64 characters');
    return key;
  }
  if (env.NODE_ENV === 'production') throw new Error('WEBHOOK_SECRET_KEY must be set in production (32 bytes: `openssl rand -hex 32`)');
  if (!serverSecret) throw new Error('server secret is not configured');
  return createHash('sha256').update(`mailvet:webhook-secret-key:dev:${serverSecret}`).digest();
}

function keyOf(deps: Pick<AppDeps, 'env' | 'auth'>): Buffer {
  return webhookEncryptionKey(deps.env, deps.auth.options.secret);
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url); the account id is authenticated data, so a row moved to another account does not decrypt. */
export function encryptSecret(key: Buffer, accountId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv);
  cipher.setAAD(Buffer.from(accountId));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function decryptSecret(key: Buffer, accountId: string, stored: string): string {
  const [format, iv, tag, ct] = stored.split('.');
  if (format !== FORMAT || !iv || !tag || ct === undefined) throw new Error('unreadable webhook secret');
  const decipher = createDecipheriv(CIPHER, key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(accountId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** What can be shown of a secret after the fact: its first characters. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, 10)}…`;
}

/**
 * Stores a first random secret for an account that has none. Returns it when this call created it;
 * null when one already existed (another request won the race), so a secret is revealed at most once.
 */
async function provisionSigningSecret(deps: Pick<AppDeps, 'db' | 'env' | 'auth'>, accountId: string, userId: string | null): Promise<{ secret: string; hint: string; created_at: Date } | null> {
  const secret = newSigningSecret();
  const hint = secretHint(secret);
  const inserted = await deps.db
    .insertInto('webhook_signing_secret')
    .values({ account_id: accountId, ciphertext: encryptSecret(keyOf(deps), accountId, secret), hint, created_by: userId, created_at: new Date() })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .returning('created_at')
    .executeTakeFirst();
  return inserted ? { secret, hint, created_at: inserted.created_at } : null;
}

/** The secret that signs the account's webhooks now (created, unseen, if the account has none yet). */
export async function currentSigningSecret(deps: Pick<AppDeps, 'db' | 'env' | 'auth'>, accountId: string): Promise<string> {
  const read = () => deps.db.selectFrom('webhook_signing_secret').select('ciphertext').where('account_id', '=', accountId).executeTakeFirst();
  const row = await read();
  if (row) return decryptSecret(keyOf(deps), accountId, row.ciphertext);
  const created = await provisionSigningSecret(deps, accountId, null);
  if (created) return created.secret;
  const raced = await read();
  if (!raced) throw new Error('webhook signing secret vanished');
  return decryptSecret(keyOf(deps), accountId, raced.ciphertext);
}

export interface SigningSecretView {
  /** The full secret only in the answer that created it; afterwards null (rotate for a new one). */
  secret: string | null;
  hint: string;
  /** When the current secret was created (first view, first delivery or last rotation). */
  rotated_at: string | null;
}

export async function signingSecretView(deps: Pick<AppDeps, 'db' | 'env' | 'auth'>, o: { accountId: string; userId: string }): Promise<SigningSecretView> {
  const read = () => deps.db.selectFrom('webhook_signing_secret').select(['hint', 'created_at']).where('account_id', '=', o.accountId).executeTakeFirst();
  const row = await read();
  if (row) return { secret: null, hint: row.hint, rotated_at: row.created_at.toISOString() };
  const created = await provisionSigningSecret(deps, o.accountId, o.userId);
  if (created) return { secret: created.secret, hint: created.hint, rotated_at: created.created_at.toISOString() };
  const raced = await read();
  if (!raced) throw new Error('webhook signing secret vanished');
  return { secret: null, hint: raced.hint, rotated_at: raced.created_at.toISOString() };
}

/** Replaces the account's secret with a new random one; returns it (the only time it is shown). */
export async function rotateSigningSecret(deps: Pick<AppDeps, 'db' | 'env' | 'auth'>, o: { accountId: string; userId: string }): Promise<{ secret: string; hint: string; rotated_at: string }> {
  const key = keyOf(deps);
  const secret = newSigningSecret();
  const hint = secretHint(secret);
  const now = new Date();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_signing_secret')
      .values({ account_id: o.accountId, ciphertext: encryptSecret(key, o.accountId, secret), hint, created_by: o.userId, created_at: now })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ciphertext: (eb) => eb.ref('excluded.ciphertext'), hint: (eb) => eb.ref('excluded.hint'), created_by: (eb) => eb.ref('excluded.created_by'), created_at: (eb) => eb.ref('excluded.created_at') }))
      .execute();
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.secret_rotated', targetType: 'account', targetId: o.accountId, data: { hint } });
  });
  return { secret, hint, rotated_at: now.toISOString() };
}
