// Razorpay's subscription lifecycle events: authorised or activated (a resumed plan's successor
// adopted), pending or halted (past due), paused and resumed, cancelled or completed (the plan runs
// to its period's end, then Free).
import type { RzpSubscriptionStatus } from '../../../db/types';
import { writeAudit } from '../audit/audit';
import { adoptSuccessor, endIfDue, markPastDue, suspendIfPausedAndDue } from './subscription-lifecycle';
import type { EventResult, SubscriptionEvent } from './razorpay-event';
import type { BillingMail } from './billing-mail';
import type { Trx } from './billing-locks';

export async function applySubscriptionEvent(ev: SubscriptionEvent): Promise<EventResult> {
  const { trx, e, now, sub, accountId, eventAt, newer, setStatus } = ev;
  const { mails, cancels } = ev.after;
  const remoteStatus = e.payload.subscription?.entity.status as RzpSubscriptionStatus | undefined;
  switch (e.event) {
    case 'subscription.authenticated':
    case 'subscription.activated': {
      await setStatus(remoteStatus === 'authenticated' ? 'authenticated' : 'active');
      // A subscription going on after a cancelled one (the owner changed their mind), authorised
      // without the checkout handler's answer reaching us: the account takes it all the same.
      if (e.event === 'subscription.authenticated' && sub.follows_id) {
        const r = await adoptSuccessor(trx, sub.id, { actorUserId: null });
        if (r.replacedSubscriptionId) cancels.push(r.replacedSubscriptionId);
        if (r.stopSubscriptionId) cancels.push(r.stopSubscriptionId);
        if (r.adopted) return { outcome: 'resumed_at_period_end', accountId };
        if (r.stopSubscriptionId) return { outcome: 'resume_dropped', accountId };
      }
      return { outcome: newer ? 'status_applied' : 'stale', accountId };
    }
    case 'subscription.pending':
    case 'subscription.halted': {
      await setStatus(e.event === 'subscription.pending' ? 'pending' : 'halted');
      if (!newer) return { outcome: 'stale', accountId };
      const mail = await markPastDue(trx, accountId, sub.id, now, e.event);
      if (e.event === 'subscription.halted' && sub.status !== 'halted') {
        // Razorpay's retries are over: nothing collects the renewal now but the owner paying (a card
        // updated at Razorpay is charged only from the next cycle). Said once, whether the account
        // was put past due now (its pending lost) or at the first failure.
        const due = mail ?? (await haltedMail(trx, accountId, sub.id));
        if (due) mails.push({ ...due, kind: 'halted' });
        return { outcome: mail ? 'past_due' : 'status_applied', accountId };
      }
      if (mail) mails.push(mail);
      return { outcome: mail ? 'past_due' : 'status_applied', accountId };
    }
    case 'subscription.paused': {
      // Razorpay charges nothing while paused: the plan runs to the end of the period already paid,
      // then the service pauses (billingTick suspends it) until the subscription is charged again.
      await setStatus('paused');
      if (!newer) return { outcome: 'stale', accountId };
      await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.paused', targetType: 'subscription', targetId: sub.id, data: { event: e.event } });
      await suspendIfPausedAndDue(trx, accountId, now);
      return { outcome: 'paused', accountId };
    }
    case 'subscription.resumed': {
      if (sub.status !== 'paused') {
        // Delivered before the pause it followed: remembered as the newest status event, so that
        // older pause is stale when it comes (in order or not, the subscription ends running).
        if (newer && sub.status === 'active') await trx.updateTable('subscription').set({ status_event_at: eventAt, updated_at: new Date() }).where('id', '=', sub.id).execute();
        return { outcome: 'ignored', accountId };
      }
      await setStatus('active');
      if (!newer) return { outcome: 'stale', accountId };
      await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.resumed', targetType: 'subscription', targetId: sub.id, data: { event: e.event } });
      // Service paused at the period's end comes back with the next charge (Razorpay charges on resuming).
      return { outcome: 'resumed', accountId };
    }
    case 'subscription.cancelled':
    case 'subscription.completed': {
      // Ended here already: Mailvet stopped it (a refund, an unpaid renewal or a resumed plan
      // cancelled, a plan change undone, a checkout replaced), each in the transaction that changed
      // the account, under the account's billing lock this event waited for. Razorpay's word on it is
      // a confirmation, not a second cancellation of whatever the account is on now.
      if (sub.status === 'cancelled' || sub.status === 'completed') {
        await setStatus(e.event === 'subscription.cancelled' ? 'cancelled' : 'completed');
        return { outcome: 'already_ended', accountId };
      }
      await setStatus(e.event === 'subscription.cancelled' ? 'cancelled' : 'completed');
      // The plan runs to the end of the paid period, then the account falls to Free (billingTick).
      const row = await trx
        .updateTable('account')
        .set({ cancel_at_period_end: true, updated_at: new Date() })
        .where('id', '=', accountId)
        .where('subscription_id', '=', sub.id)
        .returning('id')
        .executeTakeFirst();
      if (row) await writeAudit(trx, { accountId, actor: 'system', actorUserId: null, action: 'billing.subscription_ended', targetType: 'subscription', targetId: sub.id, data: { event: e.event } });
      await endIfDue(trx, accountId, now);
      return { outcome: 'cancel_recorded', accountId };
    }
    default:
      return { outcome: 'ignored', accountId };
  }
}

/** The halted mail of an account already past due on this subscription (its grace end), if it is. */
async function haltedMail(trx: Trx, accountId: string, subId: string): Promise<BillingMail | null> {
  const a = await trx.selectFrom('account').select('grace_ends_at').where('id', '=', accountId).where('subscription_id', '=', subId).where('subscription_status', '=', 'past_due').executeTakeFirst();
  return a?.grace_ends_at ? { accountId, kind: 'halted', graceEndsAt: a.grace_ends_at } : null;
}
