// SQL for api_key. The hash goes in and is matched here; it is never selected out to callers.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { preparedStatement, runPrepared } from '../../../db/prepared';
import { API_SCOPES, type ApiKey, type ApiScope } from '../../contracts/api-keys';
import { SEATED_SQL } from '../account/membership';

const publicColumns = ['id', 'name', 'key_prefix', 'created_at', 'last_used_at', 'revoked_at', 'is_test', 'scopes', 'rate_limit_per_second'] as const;

/** Stored scopes, in the canonical order; anything unknown in the column is dropped (never granted). */
export function knownScopes(stored: readonly string[]): ApiScope[] {
  return API_SCOPES.filter((s) => stored.includes(s));
}

interface ApiKeyRow {
  id: string;
  name: string;
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  is_test: boolean;
  scopes: string[];
  rate_limit_per_second: number | null;
}

export function toApiKey(r: ApiKeyRow & { creator_seatless?: boolean }): ApiKey {
  return {
    id: r.id,
    name: r.name,
    key_prefix: r.key_prefix,
    created_at: r.created_at.toISOString(),
    last_used_at: r.last_used_at?.toISOString() ?? null,
    revoked_at: r.revoked_at?.toISOString() ?? null,
    status: r.revoked_at ? 'revoked' : 'active',
    is_test: r.is_test,
    scopes: knownScopes(r.scopes),
    rate_limit_per_second: r.rate_limit_per_second,
    creator_seatless: r.creator_seatless === true,
  };
}

export async function insertApiKey(
  db: Db,
  v: { accountId: string; userId: string | null; name: string; prefix: string; hash: string; isTest: boolean; scopes: ApiScope[]; ratePerSecond: number | null },
): Promise<ApiKey> {
  const row = await db
    .insertInto('api_key')
    .values({
      account_id: v.accountId,
      created_by: v.userId,
      name: v.name,
      key_prefix: v.prefix,
      key_hash: v.hash,
      is_test: v.isTest,
      scopes: v.scopes,
      rate_limit_per_second: v.ratePerSecond,
    })
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toApiKey(row);
}

/** The account's keys, newest first (spec section 7: by account, newest first). */
/** The key's creator is a member of its account without a seat (the same test as the /v1 key lookup's). */
const creatorSeatless = sql<boolean>`exists (select 1 from member inner join account on account.id = member."organizationId"
  where member."organizationId" = api_key.account_id and member."userId" = api_key.created_by and not ${sql.raw(SEATED_SQL)})`;

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_key')
    .select([...publicColumns, creatorSeatless.as('creator_seatless')])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toApiKey);
}

export async function findAccountApiKey(db: Db, accountId: string, id: string): Promise<ApiKey | null> {
  const row = await db.selectFrom('api_key').select(publicColumns).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return row ? toApiKey(row) : null;
}

export async function countActiveApiKeys(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('api_key')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Sets revoked_at once (a revoked key stays revoked at its first revocation time). Scoped to the
 * account: another tenant's id finds nothing. Returns the key and whether this call revoked it.
 */
export async function revokeApiKey(db: Db, accountId: string, id: string): Promise<{ key: ApiKey; changed: boolean } | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const updated = await db
    .updateTable('api_key')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returning(publicColumns)
    .executeTakeFirst();
  if (updated) return { key: toApiKey(updated), changed: true };
  const existing = await db.selectFrom('api_key').select(publicColumns).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return existing ? { key: toApiKey(existing), changed: false } : null;
}

/**
 * Revokes the active keys `createdBy` made (in one account, or in every account when none is
 * named). Returns each key revoked, with its account.
 */
export async function revokeKeysCreatedBy(db: Db, o: { createdBy: string; accountId?: string }): Promise<Array<{ id: string; account_id: string; name: string; key_prefix: string }>> {
  let q = db.updateTable('api_key').set({ revoked_at: sql<Date>`now()` }).where('created_by', '=', o.createdBy).where('revoked_at', 'is', null);
  if (o.accountId) q = q.where('account_id', '=', o.accountId);
  return q.returning(['id', 'account_id', 'name', 'key_prefix']).execute();
}

export interface KeyLookup {
  keyId: string;
  accountId: string;
  keyHash: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  plan: 'free' | 'starter' | 'pro' | 'business' | 'enterprise';
  isTest: boolean;
  scopes: string[];
  ratePerSecond: number | null;
  /** Enterprise: the account's API rate set by the operator (null: the plan table's). */
  accountRatePerSecond: number | null;
  /**
   * The key's creator is a member of its account without a seat (the plan fell below the team's
   * size: membership.ts), so the key works no more than they do until a seat is theirs again.
   */
  creatorSeatless: boolean;
  /** The account's team size (what a seatless creator's refusal names). */
  teamMemberLimit: number;
}

/** $1 the key's SHA-256 (hex). A named statement: every /v1 request runs it (db/prepared.ts). */
const keyByHashStatement = preparedStatement(
  'api_key_by_hash',
  `select api_key.id as "keyId", api_key.account_id as "accountId", api_key.key_hash as "keyHash",
      api_key.revoked_at as "revokedAt", api_key.last_used_at as "lastUsedAt", account.plan,
      api_key.is_test as "isTest", api_key.scopes, api_key.rate_limit_per_second as "ratePerSecond",
      account.api_rate_per_second as "accountRatePerSecond", account.team_member_limit as "teamMemberLimit",
      exists (select 1 from member where member."organizationId" = api_key.account_id
        and member."userId" = api_key.created_by and not ${SEATED_SQL}) as "creatorSeatless"
    from api_key inner join account on account.id = api_key.account_id
    where api_key.key_hash = $1`,
);

/** The key with this hash (unique index), its account's plan and API rate, and its creator's seat, in one read. */
export async function findApiKeyByHash(db: Db, hash: string): Promise<KeyLookup | null> {
  const [row] = await runPrepared<KeyLookup>(db, keyByHashStatement, [hash]);
  return row ?? null;
}

/**
 * How the audit log names the API key that did something (its shown prefix and its name), so an
 * owner can tell which key to revoke; nothing if the key is gone.
 */
export async function apiKeyAuditFacts(db: Db, accountId: string, keyId: string): Promise<{ api_key: string; api_key_name: string } | Record<string, never>> {
  const key = await db.selectFrom('api_key').select(['key_prefix', 'name']).where('id', '=', keyId).where('account_id', '=', accountId).executeTakeFirst();
  return key ? { api_key: `${key.key_prefix}…`, api_key_name: key.name } : {};
}

/** Records use at most once per `minIntervalSeconds` per key, so busy keys cost no extra writes. */
export async function touchApiKey(db: Db, keyId: string, minIntervalSeconds: number): Promise<void> {
  await db
    .updateTable('api_key')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - make_interval(secs => ${minIntervalSeconds})`)]))
    .execute();
}
