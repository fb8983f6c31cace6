// Frozen: never edit a landed migration; add a new one.
// How many mails of one kind (reset, verification, sign-up notice) a mailbox was sent in the current
// hour: auth mails go to any address that has an account, on anybody's request, so without a cap per
// mailbox a caller with many IPs could flood an inbox (and the sender's reputation).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auth_mail_throttle')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mailbox', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('auth_mail_throttle_pkey', ['kind', 'mailbox'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auth_mail_throttle').ifExists().execute();
}
