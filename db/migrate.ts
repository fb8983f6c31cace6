// Order: better-auth's schema (its tables are referenced by ours) → our frozen Kysely migrations
// → graphile-worker's schema. Safe to run on every start and from several processes at once.
import type { BetterAuthOptions } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';
import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type pg from 'pg';
import type { Db } from './client';
import * as m001 from './migrations/2026_11_22_21_00_00_create_core';
import * as m002 from './migrations/2026_11_23_09_00_00_create_job_chunk';
import * as mPaymentOrder from './migrations/2026_11_23_14_00_00_create_payment_order';
import * as mFreeGrant from './migrations/2026_11_23_20_00_00_create_free_grant';
import * as mSubscription from './migrations/2026_11_23_21_00_00_create_subscription';
import * as mBranding from './migrations/2026_11_23_21_10_00_create_account_branding';
import * as mResultCharged from './migrations/2026_11_23_22_30_00_add_result_charged';
import * as mIdempotency from './migrations/2026_11_23_22_40_00_create_idempotency_key';
import * as mCreditGrant from './migrations/2026_11_24_02_00_00_create_credit_grant';
import * as mApiKeyScopes from './migrations/2026_11_24_04_00_00_add_api_key_scopes';
import * as mWebhookDelivery from './migrations/2026_11_24_01_00_00_create_webhook_delivery';
import * as mJobCancelled from './migrations/2026_11_24_03_00_00_add_job_cancelled';
import * as mVerifiedDomain from './migrations/2026_11_24_05_10_00_branding_verified_domain_unique';
import * as mAuthMailThrottle from './migrations/2026_11_24_05_40_00_create_auth_mail_throttle';
import * as mPaymentSecondPayment from './migrations/2026_11_24_06_00_00_add_payment_second_payment';
import * as mSubscriptionPaused from './migrations/2026_11_24_06_10_00_subscription_paused';
import * as mHashMailboxKeys from './migrations/2026_11_24_06_20_00_hash_mailbox_keys';
import * as mResultViaApi from './migrations/2026_11_24_08_10_00_validation_result_via_api';
import * as mPaymentRefundedAmount from './migrations/2026_11_24_12_10_00_payment_refunded_amount';
import * as mSubscriptionFollows from './migrations/2026_11_24_16_40_00_subscription_follows';
import * as mScheduleFirstRun from './migrations/2026_11_24_19_20_00_schedule_first_run';
import * as mHashSessionTokens from './migrations/2026_11_24_21_40_00_hash_session_tokens';
import * as mJobUnfinishedIdx from './migrations/2026_11_24_22_15_00_validation_job_unfinished_idx';
import * as mWorkerLeaseSeen from './migrations/2026_11_24_22_25_00_worker_lease_seen_at';
import * as mSchedulePausedReason from './migrations/2026_11_25_03_40_00_schedule_paused_reason';

const migrations: Record<string, Migration> = {
  '2026_11_22_21_00_00_create_core': m001,
  '2026_11_23_09_00_00_create_job_chunk': m002,
  '2026_11_23_14_00_00_create_payment_order': mPaymentOrder,
  '2026_11_23_20_00_00_create_free_grant': mFreeGrant,
  '2026_11_23_21_00_00_create_subscription': mSubscription,
  '2026_11_23_21_10_00_create_account_branding': mBranding,
  '2026_11_23_22_30_00_add_result_charged': mResultCharged,
  '2026_11_23_22_40_00_create_idempotency_key': mIdempotency,
  '2026_11_24_02_00_00_create_credit_grant': mCreditGrant,
  '2026_11_24_04_00_00_add_api_key_scopes': mApiKeyScopes,
  '2026_11_24_01_00_00_create_webhook_delivery': mWebhookDelivery,
  '2026_11_24_03_00_00_add_job_cancelled': mJobCancelled,
  '2026_11_24_05_10_00_branding_verified_domain_unique': mVerifiedDomain,
  '2026_11_24_05_40_00_create_auth_mail_throttle': mAuthMailThrottle,
  '2026_11_24_06_00_00_add_payment_second_payment': mPaymentSecondPayment,
  '2026_11_24_06_10_00_subscription_paused': mSubscriptionPaused,
  '2026_11_24_06_20_00_hash_mailbox_keys': mHashMailboxKeys,
  '2026_11_24_08_10_00_validation_result_via_api': mResultViaApi,
  '2026_11_24_12_10_00_payment_refunded_amount': mPaymentRefundedAmount,
  '2026_11_24_16_40_00_subscription_follows': mSubscriptionFollows,
  '2026_11_24_19_20_00_schedule_first_run': mScheduleFirstRun,
  '2026_11_24_21_40_00_hash_session_tokens': mHashSessionTokens,
  '2026_11_24_22_15_00_validation_job_unfinished_idx': mJobUnfinishedIdx,
  '2026_11_24_22_25_00_worker_lease_seen_at': mWorkerLeaseSeen,
  '2026_11_25_03_40_00_schedule_paused_reason': mSchedulePausedReason,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(o: { db: Db; pool: pg.Pool; authOptions: BetterAuthOptions }): Promise<void> {
  // One migrator at a time across processes (web and worker may start together).
  await sql`select pg_advisory_lock(727274)`.execute(o.db);
  try {
    const auth = await getMigrations({ ...o.authOptions, database: o.pool });
    await auth.runMigrations();
    // Engineers land migrations from separate time ranges in parallel: one landed later may sort
    // earlier than one a database already ran, so order is by name for new databases only.
    const { error, results } = await new Migrator({ db: o.db, provider, allowUnorderedMigrations: true }).migrateToLatest();
    for (const r of results ?? []) if (r.status === 'Error') console.error(`[db] migration ${r.migrationName} failed`);
    if (error) throw error;
  } finally {
    await sql`select pg_advisory_unlock(727274)`.execute(o.db);
  }
  await runWorkerMigrations({ pgPool: o.pool });
}
