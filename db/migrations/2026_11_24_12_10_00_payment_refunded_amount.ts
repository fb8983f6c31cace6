// Frozen: never edit a landed migration; add a new one.
// Razorpay refunds a payment in parts too (its dashboard): how much of a payment has been given back
// (refunded_amount) and which refunds made it up (refund_ids, each applied once however it reaches
// us: webhook, reconciliation). A payment is 'refunded' only once the whole amount is back; a part
// refund leaves it captured. Payments already refunded count as refunded in full.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('payment')
    .addColumn('refunded_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refund_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .execute();
  await sql`update payment set refunded_amount = amount, refund_ids = case when refund_id is null then '{}'::text[] else array[refund_id] end where status = 'refunded'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment').dropColumn('refund_ids').dropColumn('refunded_amount').execute();
}
