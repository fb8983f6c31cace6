// Frozen: never edit a landed migration; add a new one.
// An owner who cancelled (at the period's end) and changes their mind keeps their plan: Razorpay
// cannot take back a cancellation, so a new subscription is made whose first charge is at the end of
// the period already paid (start_at), following the cancelled one (follows_id) without a gap.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('subscription')
    .addColumn('start_at', 'timestamptz')
    .addColumn('follows_id', 'text', (c) => c.references('subscription.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscription').dropColumn('follows_id').dropColumn('start_at').execute();
}
