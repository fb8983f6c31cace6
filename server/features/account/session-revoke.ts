// Ending a user's sessions by their stored digest (server/auth/session-token-hash.ts keeps only the
// SHA-256 of each session token): what better-auth's revoke routes do, for sessions named by digest.
import type { Db } from '../../../db/client';

/** Deletes the session stored under `digest` if it is `userId`'s (another user's stays). */
export async function revokeSessionByDigest(db: Db, userId: string, digest: string): Promise<void> {
  await db.deleteFrom('session').where('token', '=', digest).where('userId', '=', userId).execute();
}

/** Deletes every session of `userId` but the one stored under `keptDigest`. */
export async function revokeSessionsExcept(db: Db, userId: string, keptDigest: string): Promise<void> {
  await db.deleteFrom('session').where('userId', '=', userId).where('token', '<>', keptDigest).execute();
}
