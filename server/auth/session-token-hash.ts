// Session tokens are kept hashed at rest: better-auth's adapter, wrapped so that the `session.token`
// column holds SHA-256(token) while every caller still deals in the token the cookie carries.
import { createHash } from 'node:crypto';
import type { DBAdapter, DBTransactionAdapter, Where } from '@better-auth/core/db/adapter';
import type { Db } from '../../db/client';
import { revokeSessionByDigest, revokeSessionsExcept } from '../features/account/session-revoke';

/**
 * better-auth stores a session's token as it is and finds a session by it; the cookie carries the
 * same token (signed). So whoever read the `session` table (a backup, a leaked replica, an injection
 * elsewhere) and the server secret (one file next to the embedded database in DATA_DIR) held every live
 * session. Like reset links (auth.ts) and API keys, the table now keeps only the SHA-256 of each token:
 *
 *  - a session created is stored under the digest; the row handed back to better-auth (and so to the
 *    cookie) carries the token itself;
 *  - every lookup, update or delete by token hashes the token it is given, and hands back the token it
 *    was given in the rows it found (a refreshed or switched session re-sets its cookie from them);
 *  - a row found otherwise (a user's sessions, listed by user id) names its token as
 *    `sha256:<digest>`; like any value, it is hashed when handed back, so neither it nor the digest
 *    finds a session: they sign nobody in. Revoking a listed session, or every other one, is done by
 *    revokeListedSessions below, before better-auth's route (which then finds nothing to do).
 *
 * Rows stored before this change are hashed by migration 2026_11_24_21_40_00_hash_session_tokens:
 * browsers keep their sessions (their cookie's token hashes to the stored digest).
 */
export const SESSION_MODEL = 'session';
export const STORED_TOKEN_REFERENCE = 'sha256:';
const DIGEST = /^[0-9a-f]{64}$/;

export const sessionTokenDigest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

type Row = Record<string, unknown>;
type Known = Map<string, string>; // digest → the token the caller named

/** The where clause with every `token` value replaced by its stored form; `known` learns which token each digest came from. */
function hashWhere(where: Where[] | undefined, known: Known): Where[] | undefined {
  if (!where) return where;
  const stored = (value: string): string => {
    const digest = sessionTokenDigest(value);
    known.set(digest, value);
    return digest;
  };
  return where.map((w) => {
    if (w.field !== 'token') return w;
    if (typeof w.value === 'string') return { ...w, value: stored(w.value) };
    if (Array.isArray(w.value)) return { ...w, value: (w.value as unknown[]).map((v) => (typeof v === 'string' ? stored(v) : v)) as string[] };
    return w;
  });
}

/** A session row as callers see it: the token they named, else a reference to the stored digest. */
function showSession(row: unknown, known: Known): unknown {
  if (!row || typeof row !== 'object') return row;
  const r = row as Row;
  if (typeof r.token !== 'string') return row;
  const plain = known.get(r.token);
  if (plain !== undefined) return { ...r, token: plain };
  return DIGEST.test(r.token) ? { ...r, token: `${STORED_TOKEN_REFERENCE}${r.token}` } : row;
}

/** Rows of another model with sessions joined in (`join: { session: true }`). */
function showJoined(row: unknown, known: Known): unknown {
  if (!row || typeof row !== 'object') return row;
  const joined = (row as Row)[SESSION_MODEL];
  if (joined === undefined || joined === null) return row;
  return { ...(row as Row), [SESSION_MODEL]: Array.isArray(joined) ? joined.map((s) => showSession(s, known)) : showSession(joined, known) };
}

function show(model: string, row: unknown, known: Known): unknown {
  return model === SESSION_MODEL ? showSession(row, known) : showJoined(row, known);
}

function hashData(data: Row, known: Known): Row {
  if (typeof data.token !== 'string') return data;
  const digest = sessionTokenDigest(data.token);
  known.set(digest, data.token);
  return { ...data, token: digest };
}

function wrap<A extends DBTransactionAdapter>(inner: A): A {
  const forSession = (model: string) => model === SESSION_MODEL;
  const wrapped: DBTransactionAdapter = {
    ...inner,
    create: async (args) => {
      if (!forSession(args.model)) return inner.create(args);
      const known: Known = new Map();
      const created = await inner.create({ ...args, data: hashData(args.data as Row, known) as typeof args.data });
      return showSession(created, known) as never;
    },
    findOne: async (args) => {
      const known: Known = new Map();
      const where = forSession(args.model) ? hashWhere(args.where, known)! : args.where;
      return show(args.model, await inner.findOne({ ...args, where }), known) as never;
    },
    findMany: async (args) => {
      const known: Known = new Map();
      const where = forSession(args.model) ? hashWhere(args.where, known) : args.where;
      const rows = await inner.findMany({ ...args, where });
      return rows.map((r) => show(args.model, r, known)) as never;
    },
    count: async (args) => (forSession(args.model) ? inner.count({ ...args, where: hashWhere(args.where, new Map()) }) : inner.count(args)),
    update: async (args) => {
      if (!forSession(args.model)) return inner.update(args);
      const known: Known = new Map();
      const updated = await inner.update({ ...args, where: hashWhere(args.where, known)!, update: hashData(args.update, known) });
      return showSession(updated, known) as never;
    },
    updateMany: async (args) =>
      forSession(args.model) ? inner.updateMany({ ...args, where: hashWhere(args.where, new Map())!, update: hashData(args.update, new Map()) }) : inner.updateMany(args),
    delete: async (args) => (forSession(args.model) ? inner.delete({ ...args, where: hashWhere(args.where, new Map())! }) : inner.delete(args)),
    deleteMany: async (args) => (forSession(args.model) ? inner.deleteMany({ ...args, where: hashWhere(args.where, new Map())! }) : inner.deleteMany(args)),
    consumeOne: async (args) => {
      if (!forSession(args.model)) return inner.consumeOne(args);
      const known: Known = new Map();
      return showSession(await inner.consumeOne({ ...args, where: hashWhere(args.where, known)! }), known) as never;
    },
    incrementOne: async (args) => {
      if (!forSession(args.model)) return inner.incrementOne(args);
      const known: Known = new Map();
      const set = args.set ? hashData(args.set as Row, known) : args.set;
      return showSession(await inner.incrementOne({ ...args, where: hashWhere(args.where, known)!, set }), known) as never;
    },
  };
  return wrapped as A;
}

/** better-auth's adapter with session tokens stored as their SHA-256 (see above); transactions too. */
export function hashingSessionTokens(inner: DBAdapter): DBAdapter {
  return { ...wrap(inner), transaction: (callback) => inner.transaction((trx) => callback(wrap(trx))) } as DBAdapter;
}

/**
 * better-auth revokes a listed session by the name list-sessions gave it, and ends "the other sessions"
 * by the names its own listing gives them: both are references here, which find nothing (above). So,
 * before its route: revoke-session with a reference deletes that session if it is the caller's own, and
 * revoke-other-sessions deletes every session of the caller but the one it is signed in with.
 */
export async function revokeListedSessions(db: Db, ctx: { path: string; body?: unknown }, session: { userId: string; token: string } | null): Promise<void> {
  if (!session) return;
  if (ctx.path === '/revoke-other-sessions') {
    await revokeSessionsExcept(db, session.userId, sessionTokenDigest(session.token));
    return;
  }
  const token = (ctx.body as { token?: unknown } | undefined)?.token;
  if (ctx.path !== '/revoke-session' || typeof token !== 'string' || !token.startsWith(STORED_TOKEN_REFERENCE)) return;
  const digest = token.slice(STORED_TOKEN_REFERENCE.length);
  if (!DIGEST.test(digest)) return;
  await revokeSessionByDigest(db, session.userId, digest);
}
