// A session ends SESSION_MAX_AGE_MS after its sign-in, however often it is used. better-auth ends a
// session only when it has been idle for its 7 days (each day of use pushes the end on), so a stolen
// cookie used every day would sign its holder in until the password changed. The adapter is wrapped:
//
//  - a session row read (by token, by user, joined to a user) ends no later than createdAt + the
//    maximum age: past it, better-auth finds it expired, deletes it and answers as signed out, on
//    every route (the app's, /api/auth's, the live streams'), and no longer lists it;
//  - a refresh never stores an end past that point, so the table says what the reads say.
import type { DBAdapter, DBTransactionAdapter } from '@better-auth/core/db/adapter';
import { SESSION_MODEL } from './session-token-hash';

export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

type Row = Record<string, unknown>;

const lastMoment = (createdAt: unknown): Date | null => (createdAt instanceof Date ? new Date(createdAt.getTime() + SESSION_MAX_AGE_MS) : null);

/** A session row whose end is brought forward to its last moment, when it lies beyond it. */
function capped(row: unknown): unknown {
  if (!row || typeof row !== 'object') return row;
  const r = row as Row;
  const last = lastMoment(r.createdAt);
  if (!last || !(r.expiresAt instanceof Date) || r.expiresAt <= last) return row;
  return { ...r, expiresAt: last };
}

/** Rows of another model with their sessions joined in (`join: { session: true }`). */
function cappedJoined(row: unknown): unknown {
  if (!row || typeof row !== 'object') return row;
  const joined = (row as Row)[SESSION_MODEL];
  if (joined === undefined || joined === null) return row;
  return { ...(row as Row), [SESSION_MODEL]: Array.isArray(joined) ? joined.map(capped) : capped(joined) };
}

const show = (model: string, row: unknown): unknown => (model === SESSION_MODEL ? capped(row) : cappedJoined(row));

function wrap<A extends DBTransactionAdapter>(inner: A): A {
  const wrapped: DBTransactionAdapter = {
    ...inner,
    findOne: async (args) => show(args.model, await inner.findOne(args)) as never,
    findMany: async (args) => (await inner.findMany(args)).map((r) => show(args.model, r)) as never,
    update: async (args) => {
      const updated = await inner.update(args);
      if (args.model !== SESSION_MODEL || !(args.update as Row).expiresAt) return updated;
      const row = capped(updated);
      if (row === updated) return updated;
      // Stored as read: the refresh asked for an end past the session's last moment.
      return (await inner.update({ ...args, update: { expiresAt: (row as Row).expiresAt } })) as never;
    },
  };
  return wrapped as A;
}

/** better-auth's adapter with every session ending at most SESSION_MAX_AGE_MS after its sign-in; transactions too. */
export function cappingSessionLifetime(inner: DBAdapter): DBAdapter {
  return { ...wrap(inner), transaction: (callback) => inner.transaction((trx) => callback(wrap(trx))) } as DBAdapter;
}
