// Frozen: never edit a landed migration; add a new one.
// Subscriptions (issue #10): the account records its billing state and period; Razorpay plans are
// created once per tier × interval × currency × mode and looked up by that key; each subscription,
// each payment (charge) and each webhook event is a row keyed by Razorpay's own ids, so a replayed
// or concurrent event can never apply twice.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('account')
    .addColumn('subscription_status', 'text', (c) =>
      c.notNull().defaultTo('none').check(sql`subscription_status in ('none','active','past_due','suspended')`),
    )
    .addColumn('billing_interval', 'text', (c) => c.check(sql`billing_interval in ('monthly','annual')`))
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('grace_ends_at', 'timestamptz')
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('billing_country', 'text', (c) => c.check(sql`billing_country ~ '^[A-Z]{2}$'`))
    .addColumn('subscription_id', 'text')
    .addColumn('api_rate_per_second', 'integer', (c) => c.check(sql`api_rate_per_second between 1 and 100000`))
    .execute();

  await db.schema
    .createTable('billing_plan')
    .addColumn('id', 'text', (c) => c.primaryKey()) // Razorpay plan id (plan_…)
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('starter','pro','business')`))
    .addColumn('interval', 'text', (c) => c.notNull().check(sql`interval in ('monthly','annual')`))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','INR')`))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('razorpay','test')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('billing_plan_key', ['plan', 'interval', 'currency', 'mode', 'amount'])
    .execute();

  await db.schema
    .createTable('subscription')
    .addColumn('id', 'text', (c) => c.primaryKey()) // Razorpay subscription id (sub_…)
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('starter','pro','business')`))
    .addColumn('interval', 'text', (c) => c.notNull().check(sql`interval in ('monthly','annual')`))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','INR')`))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('billing_plan_id', 'text', (c) => c.notNull().references('billing_plan.id'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('razorpay','test')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('created').check(sql`status in ('created','authenticated','active','pending','halted','cancelled','completed')`),
    )
    .addColumn('current_start', 'timestamptz')
    .addColumn('current_end', 'timestamptz')
    /** A plan change waiting for the renewal (plan changes take effect at renewal). */
    .addColumn('next_plan', 'text', (c) => c.check(sql`next_plan in ('starter','pro','business')`))
    .addColumn('next_billing_plan_id', 'text', (c) => c.references('billing_plan.id'))
    /** Unix seconds of the newest webhook whose status was applied (older ones cannot roll it back). */
    .addColumn('status_event_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('subscription_account_idx').on('subscription').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('payment')
    .addColumn('id', 'text', (c) => c.primaryKey()) // Razorpay payment id (pay_…)
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (c) => c.references('subscription.id').onDelete('set null'))
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('starter','pro','business')`))
    .addColumn('interval', 'text', (c) => c.notNull().check(sql`interval in ('monthly','annual')`))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','INR')`))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('captured','failed','refunded')`))
    .addColumn('period_start', 'timestamptz')
    .addColumn('period_end', 'timestamptz')
    .addColumn('credits_granted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_reason', 'text')
    .addColumn('refund_id', 'text', (c) => c.unique())
    .addColumn('refunded_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('payment_refund_complete', sql`(status = 'refunded') = (refund_id is not null and refunded_at is not null)`)
    .execute();
  await db.schema.createIndex('payment_account_idx').on('payment').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('billing_event')
    .addColumn('id', 'text', (c) => c.primaryKey()) // x-razorpay-event-id
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.references('account.id').onDelete('set null'))
    .addColumn('subscription_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('event_created_at', 'bigint')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('billing_event_account_idx').on('billing_event').columns(['account_id', 'received_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_event').ifExists().execute();
  await db.schema.dropTable('payment').ifExists().execute();
  await db.schema.dropTable('subscription').ifExists().execute();
  await db.schema.dropTable('billing_plan').ifExists().execute();
  for (const c of ['subscription_status', 'billing_interval', 'current_period_end', 'grace_ends_at', 'cancel_at_period_end', 'billing_country', 'subscription_id', 'api_rate_per_second']) {
    await db.schema.alterTable('account').dropColumn(c).execute();
  }
}
