// Billing mail to an account's owner: a renewal that failed (past due, with the grace end), one
// Razorpay stopped retrying (halted), and a suspension. Sent after the transaction that decided them; a failed send is logged, never undone.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import type { AppDeps } from '../../deps';
import { formatUtcDay } from '../../lib/dates';

export interface BillingMail {
  accountId: string;
  /** halted: Razorpay stopped retrying a renewal (past due; its grace end). */
  kind: 'past_due' | 'halted' | 'suspended';
  graceEndsAt?: Date;
}

export const BILLING_MAIL = {
  pastDueSubject: 'Your Mailvet payment failed',
  pastDue: (graceEnd: string) =>
    `We could not charge your card for your Mailvet subscription. Your plan keeps working until ${graceEnd}; please update your payment method in Razorpay or pay from the Billing page before then to avoid interruption.`,
  haltedSubject: 'Your Mailvet payment could not be collected',
  halted: (graceEnd: string) =>
    `Razorpay has stopped retrying the payment for your Mailvet subscription. Your plan keeps working until ${graceEnd}; pay from the Billing page before then to avoid a suspension. A card updated at Razorpay is charged only from your next renewal.`,
  suspendedSubject: 'Your Mailvet account is suspended',
  suspended:
    'We still could not collect your Mailvet subscription payment, so validations, uploads, the API and schedules are paused. Your data stays available to view and export. Paying from the Billing page restores the service at once.',
} as const;

/**
 * A billing date in a mail, a receipt or a server message: its UTC day, labelled ("January 15, 2027
 * (UTC)"). Unlabelled, a grace end at 02:00 UTC on the 15th read as the 15th in the Americas, where
 * it is the evening of the 14th. (The Billing page says the same: "Billing dates are UTC days".)
 */
export const formatDay = formatUtcDay;

export async function sendBillingMails(deps: AppDeps, mails: BillingMail[]): Promise<void> {
  for (const m of mails) {
    try {
      const owner = await ownerEmail(deps.db, m.accountId);
      if (!owner) continue;
      const billingUrl = new URL('/dashboard/billing', deps.baseURL).toString();
      const grace = formatDay(m.graceEndsAt ?? new Date());
      const [subject, body] =
        m.kind === 'past_due' ? [BILLING_MAIL.pastDueSubject, BILLING_MAIL.pastDue(grace)] : m.kind === 'halted' ? [BILLING_MAIL.haltedSubject, BILLING_MAIL.halted(grace)] : [BILLING_MAIL.suspendedSubject, BILLING_MAIL.suspended];
      await deps.mailer.send({
        to: owner,
        subject,
        text: `${body}\n\nBilling: ${billingUrl}\n\n— Mailvet`,
      });
    } catch (err) {
      console.error('[billing] mail failed:', err instanceof Error ? err.message : err);
    }
  }
}

export async function ownerEmail(db: Kysely<Database>, accountId: string): Promise<string | null> {
  const row = await db.selectFrom('account').innerJoin('user', 'user.id', 'account.owner_id').select('user.email').where('account.id', '=', accountId).executeTakeFirst();
  return row?.email ?? null;
}
