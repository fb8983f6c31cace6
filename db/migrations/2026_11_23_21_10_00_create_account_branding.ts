// Frozen: never edit a landed migration; add a new one.
// White-label (issue #10): an account's brand — logo (PNG, SVGs are rasterised before storing),
// colour, custom domain with its ownership token and verification time — and, for Enterprise,
// the product and sender names.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_branding')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
    .addColumn('logo_png', 'bytea')
    .addColumn('logo_updated_at', 'timestamptz')
    .addColumn('brand_color', 'text', (c) => c.check(sql`brand_color ~ '^#[0-9a-f]{6}$'`))
    .addColumn('custom_domain', 'text', (c) => c.unique())
    .addColumn('domain_token', 'text')
    .addColumn('domain_verified_at', 'timestamptz')
    .addColumn('product_name', 'text', (c) => c.check(sql`char_length(product_name) between 1 and 40`))
    .addColumn('sender_name', 'text', (c) => c.check(sql`char_length(sender_name) between 1 and 60`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_branding').ifExists().execute();
}
