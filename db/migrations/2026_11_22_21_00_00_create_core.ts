// Frozen: never edit a landed migration; add a new one.
// better-auth's own tables (user, session, auth_account, verification, organization, member,
// invitation, two_factor) are created before this by better-auth's schema migration (db/migrate.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Account: the spec's billing/quota entity; one per better-auth organization (same id).
  await db.schema
    .createTable('account')
    .addColumn('id', 'text', (c) => c.primaryKey().references('organization.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free').check(sql`plan in ('free','starter','pro','business','enterprise')`))
    .addColumn('credits_balance', 'integer', (c) => c.notNull().defaultTo(500).check(sql`credits_balance >= 0`))
    .addColumn('monthly_validations_quota', 'integer', (c) => c.notNull().defaultTo(500).check(sql`monthly_validations_quota >= 0`))
    .addColumn('monthly_validations_used', 'integer', (c) => c.notNull().defaultTo(0).check(sql`monthly_validations_used >= 0`))
    .addColumn('team_member_limit', 'integer', (c) => c.notNull().defaultTo(1).check(sql`team_member_limit >= 0`))
    .addColumn('usage_period_start', 'date', (c) => c.notNull().defaultTo(sql`date_trunc('month', now())::date`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('account_owner_id_idx').on('account').column('owner_id').execute();

  await db.schema
    .createTable('profile')
    .addColumn('id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('full_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('validation_job')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('upload').check(sql`source in ('upload','api','schedule','replay')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending','processing','completed','failed')`))
    .addColumn('total_emails', 'integer', (c) => c.notNull().defaultTo(0).check(sql`total_emails >= 0`))
    .addColumn('processed_emails', 'integer', (c) => c.notNull().defaultTo(0).check(sql`processed_emails >= 0`))
    .addColumn('error', 'text')
    .addColumn('file_path', 'text')
    .addColumn('webhook_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('validation_job_account_created_idx').on('validation_job').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('validation_result')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('job_id', 'uuid', (c) => c.references('validation_job.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull().check(sql`result in ('valid','invalid','risky')`))
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('is_syntax_valid', 'boolean', (c) => c.notNull())
    .addColumn('is_dns_valid', 'boolean', (c) => c.notNull())
    .addColumn('is_mx_valid', 'boolean', (c) => c.notNull())
    .addColumn('is_smtp_valid', 'boolean', (c) => c.notNull())
    .addColumn('deliverability_score', 'integer', (c) => c.notNull().check(sql`deliverability_score between 0 and 100`))
    .addColumn('mx_hosts', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('role_detected', 'boolean', (c) => c.notNull())
    .addColumn('disposable_provider', 'boolean', (c) => c.notNull())
    .addColumn('free_provider', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('catch_all', 'boolean')
    .addColumn('suggestion', 'text')
    .addColumn('domain_age_days', 'integer')
    .addColumn('evidence', 'jsonb')
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index validation_result_job_email_key on validation_result (job_id, email) where job_id is not null`.execute(db);
  await db.schema.createIndex('validation_result_account_checked_idx').on('validation_result').columns(['account_id', 'checked_at']).execute();

  await db.schema
    .createTable('schedule')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('email_list', sql`text[]`, (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull().defaultTo('weekly').check(sql`frequency in ('daily','weekly','monthly')`))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('total_runs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_run_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('schedule_account_idx').on('schedule').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique()) // sha256 hex of the full key; the key itself is never stored
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_key_account_idx').on('api_key').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.references('account.id').onDelete('cascade'))
    .addColumn('actor_user_id', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('actor', 'text', (c) => c.notNull().defaultTo('user')) // user | operator | system | api_key
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_account_idx').on('audit_log').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('dev_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Job changes are announced so every web process can push them to its browsers (History is live).
  await sql`
    create function notify_validation_job() returns trigger language plpgsql as $$
    declare r record;
    begin
      if tg_op = 'DELETE' then r := old; else r := new; end if;
      perform pg_notify('validation_job', json_build_object('op', tg_op, 'id', r.id, 'account_id', r.account_id)::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger validation_job_notify after insert or update or delete on validation_job
    for each row execute function notify_validation_job()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists validation_job_notify on validation_job`.execute(db);
  await sql`drop function if exists notify_validation_job()`.execute(db);
  for (const t of ['dev_outbox', 'audit_log', 'api_key', 'schedule', 'validation_result', 'validation_job', 'profile', 'account']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
