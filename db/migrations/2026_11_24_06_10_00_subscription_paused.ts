// Frozen: never edit a landed migration; add a new one.
// Razorpay subscriptions can be paused (subscription.paused) and resumed (subscription.resumed):
// our subscription row records 'paused' like Razorpay's other statuses.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table subscription drop constraint if exists subscription_status_check`.execute(db);
  await sql`alter table subscription add constraint subscription_status_check check (status in ('created','authenticated','active','pending','halted','paused','cancelled','completed'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update subscription set status = 'active' where status = 'paused'`.execute(db);
  await sql`alter table subscription drop constraint if exists subscription_status_check`.execute(db);
  await sql`alter table subscription add constraint subscription_status_check check (status in ('created','authenticated','active','pending','halted','cancelled','completed'))`.execute(db);
}
