// Frozen: never edit a landed migration; add a new one.
// A second payment for one period (Razorpay's own retry of an unpaid subscription charged while the
// owner paid it again with a new one) is recorded as second_payment: it grants nothing and is refunded
// through Razorpay's refund API (while it is still captured, the billing reconciliation retries a
// refund that could not be made at once).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment').addColumn('second_payment', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment').dropColumn('second_payment').execute();
}
