// Billing mail to an account's owner: a renewal that failed (past due, with the grace end) and a
// suspension. Sent after the transaction that decided them; a failed send is logged, never undone.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import type { AppDeps } from '../../deps';

export interface BillingMail {
  accountId: string;
  kind: 'past_due' | 'suspended';
  graceEndsAt?: Date;
}

export const BILLING_MAIL = {
  pastDueSubject: 'Your Mailvet payment failed',
  pastDue: (graceEnd: string) =>
    `We could not charge your card for your Mailvet subscription. Your plan keeps working until ${graceEnd}; please update your payment method in Razorpay or pay from the Billing page before then to avoid interruption.`,
  suspendedSubject: 'Your Mailvet account is suspended',
  suspended:
    'We still could not collect your Mailvet subscription payment, so validations, uploads, the API and schedules are paused. Your data stays available to view and export. Paying from the Billing page restores the service at once.',
} as const;

export function formatDay(d: Date): string {
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

export async function sendBillingMails(deps: AppDeps, mails: BillingMail[]): Promise<void> {
  for (const m of mails) {
    try {
      const owner = await ownerEmail(deps.db, m.accountId);
      if (!owner) continue;
      const billingUrl = new URL('/dashboard/billing', deps.baseURL).toString();
      const body = m.kind === 'past_due' ? BILLING_MAIL.pastDue(formatDay(m.graceEndsAt ?? new Date())) : BILLING_MAIL.suspended;
      await deps.mailer.send({
        to: owner,
        subject: m.kind === 'past_due' ? BILLING_MAIL.pastDueSubject : BILLING_MAIL.suspendedSubject,
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
