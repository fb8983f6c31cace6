// Frozen: never edit a landed migration; add a new one.
// Free credits once per person. free_grant keeps one row per user ever provisioned (no foreign
// key: the record outlives the user and the account), with the normalised email it was keyed on;
// at most one row per email key carries the grant. A user with a row is never provisioned again.
// Also: account.owner_id no longer cascades from the user. Deleting a user passes ownership of
// shared accounts on (server/features/account) and can never take an account's data with it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('free_grant')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text') // the account provisioned for the user (may be gone since)
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0).check(sql`credits >= 0`))
    .addColumn('granted_at', 'timestamptz') // null: the email key had its grant already
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('free_grant_granted_has_credits', sql`(granted_at is null) = (credits = 0)`)
    .execute();
  await sql`create unique index free_grant_email_key_granted on free_grant (email_key) where granted_at is not null`.execute(db);
  await db.schema.createIndex('free_grant_email_key_idx').on('free_grant').column('email_key').execute();

  // Everyone provisioned so far got the sign-up credits: record them (same key rules as email-key.ts).
  await sql`
    insert into free_grant (user_id, email_key, account_id, credits, granted_at, created_at)
    select distinct on (k.email_key) k.user_id, k.email_key, k.account_id, 500, k.created_at, k.created_at
    from (
      select u.id as user_id, a.id as account_id, a.created_at,
        case when split_part(lower(u.email), '@', 2) in ('gmail.com', 'googlemail.com')
          then replace(split_part(split_part(lower(u.email), '@', 1), '+', 1), '.', '') || '@gmail.com'
          else (case when left(split_part(lower(u.email), '@', 1), 1) = '+' then split_part(lower(u.email), '@', 1)
                     else split_part(split_part(lower(u.email), '@', 1), '+', 1) end) || '@' || rtrim(split_part(lower(u.email), '@', 2), '.')
        end as email_key
      from "user" u join account a on a.owner_id = u.id
    ) k
    order by k.email_key, k.created_at
    on conflict do nothing`.execute(db);
  await sql`
    insert into free_grant (user_id, email_key, account_id, credits, granted_at)
    select u.id, lower(u.email), null, 0, null from "user" u
    where not exists (select 1 from free_grant g where g.user_id = u.id)
      and exists (select 1 from member m where m."userId" = u.id)`.execute(db);

  await sql`
    do $$
    declare c text;
    begin
      select con.conname into c from pg_constraint con
        join pg_attribute att on att.attrelid = con.conrelid and att.attnum = any (con.conkey)
        where con.conrelid = 'account'::regclass and con.contype = 'f' and att.attname = 'owner_id';
      if c is not null then execute format('alter table account drop constraint %I', c); end if;
    end $$`.execute(db);
  await sql`alter table account add constraint account_owner_id_fkey foreign key (owner_id) references "user"(id) on delete restrict`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table account drop constraint if exists account_owner_id_fkey`.execute(db);
  await sql`alter table account add constraint account_owner_id_fkey foreign key (owner_id) references "user"(id) on delete cascade`.execute(db);
  await db.schema.dropTable('free_grant').ifExists().execute();
}
