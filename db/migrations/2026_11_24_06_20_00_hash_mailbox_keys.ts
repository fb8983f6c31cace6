// Frozen: never edit a landed migration; add a new one.
// Mailbox keys are stored as SHA-256 digests, never as addresses (server/features/account/email-key.ts
// mailboxDigest): free_grant outlives a deleted account, and the Privacy page promises the address
// goes with it. The stored keys were already normalised, so their digest is what the code now computes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update free_grant set email_key = encode(sha256(convert_to(email_key, 'UTF8')), 'hex') where email_key like '%@%'`.execute(db);
  await sql`update auth_mail_throttle set mailbox = encode(sha256(convert_to(mailbox, 'UTF8')), 'hex') where mailbox like '%@%'`.execute(db);
}

export async function down(): Promise<void> {
  // One-way: the addresses are not kept anywhere to restore them from.
}
