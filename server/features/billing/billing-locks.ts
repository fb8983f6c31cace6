// The one order every billing transaction of an account takes its locks in: the account's billing
// lock first, then its rows (subscription, account, payment). A webhook's event, the checkout
// handler's charge and a refund of the same account wait for each other instead of deadlocking.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database, SubscriptionTable } from '../../../db/types';

export type Trx = Transaction<Database>;

/**
 * Every billing transaction of an account (a webhook's event, the checkout handler's charge, a
 * refund) first takes this account's billing lock, then its rows: subscription, account, payment.
 * Two of them never hold rows the other waits for — a charge of a new subscription also updates the
 * subscription it replaces, which a charge of that one (Razorpay's retry, at the same moment) holds
 * — so Postgres never has to abort one as a deadlock (a webhook answered 500, a checkout's answer an
 * error, a refund made at Razorpay whose plan change rolled back).
 */
export async function lockAccountBilling(trx: Trx, accountId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(727275, hashtext(${accountId}))`.execute(trx);
}

/** The subscription row, locked after its account's billing lock (undefined: not ours). */
export async function lockSubscription(trx: Trx, subscriptionId: string): Promise<Selectable<SubscriptionTable> | undefined> {
  const seen = await trx.selectFrom('subscription').select('account_id').where('id', '=', subscriptionId).executeTakeFirst();
  if (!seen) return undefined;
  await lockAccountBilling(trx, seen.account_id);
  return trx.selectFrom('subscription').selectAll().where('id', '=', subscriptionId).forUpdate().executeTakeFirst();
}
