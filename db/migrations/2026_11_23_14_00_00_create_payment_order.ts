// Frozen: never edit a landed migration; add a new one.
// Payment orders (Razorpay, or the local test checkout when no keys are configured) and the
// payment that settled each. A payment id can settle one order only, once: upgrades are idempotent.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_order')
    .addColumn('id', 'text', (c) => c.primaryKey()) // the provider's order id (order_…)
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('starter','pro','business','enterprise')`))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','INR')`))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`)) // minor units (cents, paise)
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('razorpay','test')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created').check(sql`status in ('created','paid')`))
    .addColumn('payment_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('paid_at', 'timestamptz')
    .addCheckConstraint('payment_order_paid_has_payment', sql`(status = 'paid') = (payment_id is not null and paid_at is not null)`)
    .execute();
  await db.schema.createIndex('payment_order_account_idx').on('payment_order').columns(['account_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_order').ifExists().execute();
}
