// A charge of an account that no longer exists: Razorpay charged a renewal just before the account's
// deletion stopped its subscription (deleteUserAndOwnedAccounts), and the charge's webhook reaches
// us after the account, its subscription and payments are gone. The customer paid a period of an
// account they deleted: it is refunded in full through the refund API, once per payment whichever
// event id brings it, and the billing reconciliation tries again while Razorpay would not take it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { writeAudit } from '../audit/audit';
import type { PaymentGateway } from './razorpay';
import { webhookBody, type AfterCommit, type EventResult, type WebhookBody } from './razorpay-event';
import type { Trx } from './billing-locks';

/** billing_event outcomes of such a charge: its refund owed, then made. */
export const DELETED_ACCOUNT_REFUND_DUE = 'deleted_account_refund_due';
export const DELETED_ACCOUNT_REFUNDED = 'deleted_account_refunded';

/**
 * subscription.charged for a subscription we do not hold: one an account deletion stopped (its
 * `user.deleted` audit entry lists it) is a charge of a deleted account, owed back after the commit;
 * any other is not ours to refund (unknown_subscription).
 */
export async function applyDeletedAccountCharge(trx: Trx, e: WebhookBody, subscriptionId: string, after: AfterCommit): Promise<EventResult> {
  const pay = e.payload.payment?.entity;
  const unknown = { outcome: 'unknown_subscription', accountId: null };
  if (e.event !== 'subscription.charged' || !pay || pay.amount === undefined || pay.amount <= 0) return unknown;
  const stopped = await trx
    .selectFrom('audit_log')
    .select('id')
    // Entries of no account (audit_log_account_idx finds them): a webhook of a subscription that is
    // not ours does not scan the whole log.
    .where('account_id', 'is', null)
    .where('action', '=', 'user.deleted')
    .where(sql<boolean>`jsonb_exists(data->'subscriptions_stopped', ${subscriptionId})`)
    .executeTakeFirst();
  if (!stopped) return unknown;
  // Once per payment: the same charge under another event id (re-sent, or at the same moment) waits here and finds it owed.
  await sql`select pg_advisory_xact_lock(hashtext(${`deleted_account_charge:${pay.id}`}))`.execute(trx);
  const seen = await trx.selectFrom('billing_event').select('id').where('payment_id', '=', pay.id).where('outcome', 'in', [DELETED_ACCOUNT_REFUND_DUE, DELETED_ACCOUNT_REFUNDED]).executeTakeFirst();
  if (seen) return { outcome: 'duplicate_payment', accountId: null };
  await writeAudit(trx, {
    accountId: null,
    actor: 'system',
    actorUserId: null,
    action: 'billing.deleted_account_charge',
    targetType: 'payment',
    targetId: pay.id,
    data: { subscription_id: subscriptionId, amount: pay.amount, currency: pay.currency ?? null, refund: 'due' },
  });
  after.deletedAccountRefunds.push({ paymentId: pay.id, amount: pay.amount });
  return { outcome: DELETED_ACCOUNT_REFUND_DUE, accountId: null };
}

/** Refunds the charges of deleted accounts (after the commit that recorded them owed); false for one Razorpay would not take now. */
export async function refundDeletedAccountCharges(
  db: Kysely<Database>,
  gateway: Pick<PaymentGateway, 'refundPayment'> | null,
  charges: Array<{ paymentId: string; amount: number }>,
): Promise<string[]> {
  const done: string[] = [];
  if (!gateway) return done;
  for (const c of charges) {
    try {
      const refund = await gateway.refundPayment(c.paymentId, c.amount, { reason: 'account_deleted' });
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('billing_event').set({ outcome: DELETED_ACCOUNT_REFUNDED }).where('payment_id', '=', c.paymentId).where('outcome', '=', DELETED_ACCOUNT_REFUND_DUE).execute();
        await writeAudit(trx, { accountId: null, actor: 'system', actorUserId: null, action: 'billing.deleted_account_refunded', targetType: 'payment', targetId: c.paymentId, data: { refund_id: refund.id, amount: c.amount } });
      });
      done.push(c.paymentId);
    } catch (err) {
      console.error('[billing] refund of a deleted account’s charge failed (retried by the reconciliation):', (err as { error?: unknown })?.error ?? err);
    }
  }
  return done;
}

/** The charges of deleted accounts still owed back (a refund Razorpay would not take then): for the reconciliation. */
export async function deletedAccountRefundsDue(db: Kysely<Database>): Promise<Array<{ paymentId: string; amount: number }>> {
  const rows = await db.selectFrom('billing_event').select(['payment_id', 'payload']).where('outcome', '=', DELETED_ACCOUNT_REFUND_DUE).orderBy('received_at').execute();
  const due = new Map<string, number>();
  for (const r of rows) {
    const parsed = webhookBody.safeParse(typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload);
    const amount = parsed.success ? parsed.data.payload.payment?.entity.amount : undefined;
    if (r.payment_id && amount) due.set(r.payment_id, amount);
  }
  return [...due].map(([paymentId, amount]) => ({ paymentId, amount }));
}

/**
 * The other order: the renewal's charge applied while the deletion was stopping the subscription
 * (after it had looked, before its transaction). `paid` lists the accounts' payments from before the
 * stop (paymentsOf); in the deletion's transaction, under the accounts' billing locks, a payment of a
 * stopped subscription that is not among them was charged meanwhile: it is recorded owed (its
 * webhook's billing_event, which outlives the account, and the audit) and returned, to be refunded
 * once the deletion has committed (refundDeletedAccountCharges).
 */
export async function chargedDuringDeletion(trx: Trx, o: { accountIds: string[]; stopped: string[]; paid: Set<string> }): Promise<Array<{ paymentId: string; amount: number }>> {
  if (o.stopped.length === 0) return [];
  const rows = await trx
    .selectFrom('payment')
    .select(['id', 'subscription_id', 'amount', 'refunded_amount', 'currency'])
    .where('account_id', 'in', o.accountIds)
    .where('subscription_id', 'in', o.stopped)
    .where('status', '=', 'captured')
    .where('second_payment', '=', false)
    .execute();
  const owed: Array<{ paymentId: string; amount: number }> = [];
  for (const p of rows.filter((r) => !o.paid.has(r.id))) {
    const amount = p.amount - p.refunded_amount;
    if (amount <= 0) continue;
    await trx.updateTable('billing_event').set({ outcome: DELETED_ACCOUNT_REFUND_DUE }).where('payment_id', '=', p.id).where('event', '=', 'subscription.charged').execute();
    await writeAudit(trx, { accountId: null, actor: 'system', actorUserId: null, action: 'billing.deleted_account_charge', targetType: 'payment', targetId: p.id, data: { subscription_id: p.subscription_id, amount, currency: p.currency, refund: 'due', during_deletion: true } });
    owed.push({ paymentId: p.id, amount });
  }
  return owed;
}

/** The payments these accounts hold now (before an account deletion stops their subscriptions). */
export async function paymentsOf(db: Kysely<Database>, accountIds: string[]): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const rows = await db.selectFrom('payment').select('id').where('account_id', 'in', accountIds).execute();
  return new Set(rows.map((r) => r.id));
}
