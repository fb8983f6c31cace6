// A Razorpay event: its body's schema (the fields we read are checked; the rest is kept as sent), and
// what the handler of an event family is given to apply one to a locked subscription.
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { RzpSubscriptionStatus, SubscriptionTable } from '../../../db/types';
import type { BillingMail } from './billing-mail';
import type { Trx } from './billing-locks';

export const BILLING_EVENTS = [
  'subscription.authenticated',
  'subscription.activated',
  'subscription.charged',
  'subscription.pending',
  'subscription.halted',
  'subscription.paused',
  'subscription.resumed',
  'subscription.cancelled',
  'subscription.completed',
  'payment.failed',
  'refund.processed',
  'refund.failed',
] as const;

const entity = <T extends z.ZodTypeAny>(inner: T) => z.object({ entity: inner }).optional();
const subscriptionEntity = z.looseObject({
  id: z.string().min(1).max(100),
  plan_id: z.string().max(100).optional(),
  status: z.string().max(40).optional(),
  current_start: z.number().nullable().optional(),
  current_end: z.number().nullable().optional(),
});
const paymentEntity = z.looseObject({
  id: z.string().min(1).max(100),
  amount: z.number().int().nonnegative().optional(),
  currency: z.string().max(10).optional(),
  status: z.string().max(40).optional(),
  error_description: z.string().max(500).nullable().optional(),
  subscription_id: z.string().max(100).nullable().optional(),
});
const refundEntity = z.looseObject({ id: z.string().min(1).max(100), payment_id: z.string().min(1).max(100), amount: z.number().int().nonnegative().optional() });

export const webhookBody = z.looseObject({
  event: z.string().min(1).max(100),
  created_at: z.number().int().nonnegative().optional(),
  payload: z.looseObject({
    subscription: entity(subscriptionEntity),
    payment: entity(paymentEntity),
    refund: entity(refundEntity),
  }),
});
export type WebhookBody = z.infer<typeof webhookBody>;

/** Mails to send, subscriptions to stop at the gateway and payments to refund, once the transaction has committed. */
export interface AfterCommit {
  mails: BillingMail[];
  cancels: string[];
  /** second payments of a period, given back (refundSecondPayments) */
  refunds: string[];
  /** payments whose full refund failed at Razorpay, refunded again (refundAgain) */
  retries: string[];
  /** charges of accounts deleted meanwhile, given back (refundDeletedAccountCharges) */
  deletedAccountRefunds: Array<{ paymentId: string; amount: number }>;
}

/** What applying an event did (stored as the billing_event's outcome) and to which account. */
export interface EventResult {
  outcome: string;
  accountId: string | null;
}

/** An event of one of our subscriptions, its row locked (billing-locks.ts). */
export interface SubscriptionEvent {
  trx: Trx;
  e: WebhookBody;
  now: Date;
  /** The subscription as it was before this event. */
  sub: Selectable<SubscriptionTable>;
  accountId: string;
  /** When the event happened (Unix seconds): Razorpay's time, else now. */
  eventAt: number;
  /** Not older than the last status event applied: only the newest event sets the status. */
  newer: boolean;
  /** Sets the subscription's status when this event is the newest (an ended subscription stays ended). */
  setStatus: (status: RzpSubscriptionStatus) => Promise<void>;
  after: AfterCommit;
}
