// Frozen: never edit a landed migration; add a new one.
// A custom domain belongs to the account that proved it (the DNS TXT record), not to the first one
// that typed it: an unverified claim no longer holds the domain against its real owner. At most
// one account holds a domain verified.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table account_branding drop constraint if exists account_branding_custom_domain_key`.execute(db);
  await sql`create unique index account_branding_verified_domain on account_branding (custom_domain) where domain_verified_at is not null`.execute(db);
  await sql`create index account_branding_custom_domain on account_branding (custom_domain)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists account_branding_custom_domain`.execute(db);
  await sql`drop index if exists account_branding_verified_domain`.execute(db);
  await sql`alter table account_branding add constraint account_branding_custom_domain_key unique (custom_domain)`.execute(db);
}
