// A suspended account (a renewal left unpaid past its grace period) may read and export its data,
// but nothing that does new work: single checks, uploads, /v1 and schedule runs answer 402.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { AppError } from '../../lib/app-error';

export const SUSPENDED_MESSAGE =
  'Your account is suspended because the last subscription payment failed. Your data is still here to view and export; pay from the Billing page to resume validations right away.';

export async function isSuspended(db: Kysely<Database>, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('account').select('subscription_status').where('id', '=', accountId).executeTakeFirst();
  return row?.subscription_status === 'suspended';
}

/** Throws 402 PAYMENT_REQUIRED when the account is suspended. */
export async function assertServiceActive(db: Kysely<Database>, accountId: string): Promise<void> {
  if (await isSuspended(db, accountId)) throw new AppError('PAYMENT_REQUIRED', SUSPENDED_MESSAGE);
}

/** Enterprise's per-account API rate set by the operator, or null (the plan table's). */
export async function customApiRate(db: Kysely<Database>, accountId: string): Promise<number | null> {
  const row = await db.selectFrom('account').select('api_rate_per_second').where('id', '=', accountId).executeTakeFirst();
  return row?.api_rate_per_second ?? null;
}
