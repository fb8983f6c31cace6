// Frozen: never edit a landed migration; add a new one.
// One row per month of credits a paid subscription granted, keyed by the month it starts:
// `period:<subscription id>:<YYYY-MM-DD>`. The charge that starts a period (month 0) and the
// monthly refills of annual plans (months 1–11, billing-tick) use the same key, so a month is
// granted once whichever door reaches it first (issue #10: no double grant in an annual plan's
// first month). Kept when the account goes (the record of money's worth granted).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('credit_grant')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits >= 0`))
    .addColumn('period_start', 'date', (c) => c.notNull())
    .addColumn('granted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('credit_grant_account_idx').on('credit_grant').columns(['account_id', 'period_start']).execute();
  // Periods charged so far granted their month 0.
  await sql`
    insert into credit_grant (key, account_id, subscription_id, payment_id, credits, period_start, granted_at)
    select 'period:' || p.subscription_id || ':' || to_char(p.period_start at time zone 'UTC', 'YYYY-MM-DD'),
           p.account_id, p.subscription_id, p.id, p.credits_granted, (p.period_start at time zone 'UTC')::date, p.created_at
    from payment p
    where p.subscription_id is not null and p.period_start is not null and p.status in ('captured', 'refunded')
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('credit_grant').execute();
}
