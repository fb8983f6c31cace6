// Frozen: never edit a landed migration; add a new one.
// Session tokens are stored as SHA-256 digests (server/auth/session-token-hash.ts): the rows stored as
// tokens become their digests, so each browser keeps its session (its cookie's token hashes to the row)
// and the table no longer holds what signs anyone in. better-auth's tokens are 32 letters and digits,
// a digest 64 hex digits: rows already hashed are left alone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update "session" set token = encode(sha256(convert_to(token, 'UTF8')), 'hex') where token !~ '^[0-9a-f]{64}$'`.execute(db);
}

export async function down(): Promise<void> {
  // One-way: the tokens are not kept anywhere to restore them from.
}
