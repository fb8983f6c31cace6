// Public API authentication: `Authorization: Bearer mv_live_…` → the key's account, or a typed
// refusal. Only the key's SHA-256 is stored; the lookup goes through its unique index (a hash
// reveals nothing about timing of the key itself) and the digest found is compared again in constant
// time. Use is recorded at most once a minute per key. Concurrent requests with the same key share
// one lookup per round trip (lib/next-round.ts): never an answer older than the request, so a
// revoked key is refused from the first request that arrives after the revocation committed.
import type { Db } from '../../db/client';
import type { ApiScope } from '../contracts/api-keys';
import type { PlanType } from '../contracts/plans';
import { hashApiKey, looksLikeApiKey, sameDigest } from '../features/api-keys/api-key-format';
import { findApiKeyByHash, knownScopes, touchApiKey, type KeyLookup } from '../features/api-keys/api-keys.queries';
import { NextRoundLoader } from '../lib/next-round';

export const LAST_USED_RESOLUTION_SECONDS = 60;

export interface ApiKeyPrincipal {
  accountId: string;
  keyId: string;
  plan: PlanType;
  /** A sandbox key (mv_test_…). */
  isTest: boolean;
  scopes: ApiScope[];
  /** The key's own rate limit (requests per second), or null for the plan's. */
  ratePerSecond: number | null;
  /** Enterprise: the account's own API rate (mailvet accounts set-api-rate), or null for the plan table's. */
  accountRatePerSecond: number | null;
  /** The key's creator has no seat in the account (its plan fell below the team's size): the account's team size, else null. */
  seatlessCreatorLimit: number | null;
}

export type ApiKeyAuthFailure = {
  ok: false;
  code: 'MISSING_API_KEY' | 'INVALID_API_KEY' | 'KEY_REVOKED';
  message: string;
};

export type ApiKeyAuthResult = { ok: true; principal: ApiKeyPrincipal } | ApiKeyAuthFailure;

const missing: ApiKeyAuthFailure = {
  ok: false,
  code: 'MISSING_API_KEY',
  message: 'Missing API key. Send it as "Authorization: Bearer <your API key>".',
};
const invalid: ApiKeyAuthFailure = {
  ok: false,
  code: 'INVALID_API_KEY',
  message: 'Invalid API key. Check the key, or create a new one on the API Keys page.',
};
const revoked: ApiKeyAuthFailure = {
  ok: false,
  code: 'KEY_REVOKED',
  message: 'This API key has been revoked. Create a new one on the API Keys page.',
};

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

const lookups = new WeakMap<Db, NextRoundLoader<string, KeyLookup | null>>();
/** Rows whose last_used_at update was already sent (requests sharing one lookup send one). */
const touched = new WeakSet<KeyLookup>();

function lookupByHash(db: Db, hash: string): Promise<KeyLookup | null> {
  let loader = lookups.get(db);
  if (!loader) {
    loader = new NextRoundLoader((h) => findApiKeyByHash(db, h));
    lookups.set(db, loader);
  }
  return loader.get(hash);
}

export async function authenticateApiKey(db: Db, authorizationHeader: string | null | undefined): Promise<ApiKeyAuthResult> {
  const token = bearerToken(authorizationHeader);
  if (!token) return missing;
  if (!looksLikeApiKey(token)) return invalid;
  const hash = hashApiKey(token);
  const row = await lookupByHash(db, hash);
  if (!row || !sameDigest(row.keyHash, hash)) return invalid;
  if (row.revokedAt) return revoked;
  const stale = !row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_SECONDS * 1000;
  if (stale && !touched.has(row)) {
    touched.add(row);
    // Not on the request's critical path; the conditional update keeps it to one write a minute.
    void touchApiKey(db, row.keyId, LAST_USED_RESOLUTION_SECONDS).catch((err) => console.error('[api-key] last_used_at:', err instanceof Error ? err.message : err));
  }
  return {
    ok: true,
    principal: { accountId: row.accountId, keyId: row.keyId, plan: row.plan, isTest: row.isTest, scopes: knownScopes(row.scopes), ratePerSecond: row.ratePerSecond, accountRatePerSecond: row.accountRatePerSecond, seatlessCreatorLimit: row.creatorSeatless ? row.teamMemberLimit : null },
  };
}
