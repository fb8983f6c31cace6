// The audit log as owners and admins read it (Settings → Audit Log): categories to filter by, the
// words for each action, and the query's input. Pure data, shared with the SPA.
import { z } from 'zod';

export const AUDIT_CATEGORIES = {
  keys: { label: 'API keys & webhooks', prefixes: ['api_key.', 'webhook.'] },
  team: { label: 'Members & invitations', prefixes: ['team.'] },
  billing: { label: 'Plan & billing', prefixes: ['billing.', 'account.plan_set', 'account.credits_granted', 'quota.', 'subscription.'] },
  jobs: { label: 'Jobs', prefixes: ['job.', 'retention.'] },
  schedules: { label: 'Schedules', prefixes: ['schedule.'] },
  settings: { label: 'Account & settings', prefixes: ['profile.', 'account.created', 'account.free_credits_granted', 'account.reopened', 'account.owner_changed', 'settings.'] },
} as const;

export type AuditCategory = keyof typeof AUDIT_CATEGORIES;
export const auditCategorySchema = z.enum(Object.keys(AUDIT_CATEGORIES) as [AuditCategory, ...AuditCategory[]]);

export const AUDIT_PAGE_SIZES = [10, 25, 50, 100] as const;

export const auditLogInput = z.object({
  page: z.number({ error: 'page must be a number.' }).int().min(1, 'page must be at least 1.').max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100, 'pageSize can be at most 100.').default(25),
  category: auditCategorySchema.optional(),
  /** Only what this user did. */
  actorUserId: z.string().min(1).max(200).optional(),
});
export type AuditLogInput = z.input<typeof auditLogInput>;

const LABELS: Record<string, string> = {
  'account.created': 'Account created',
  'account.free_credits_granted': 'Free validations granted (email verified)',
  'account.reopened': 'Account reopened',
  'account.owner_changed': 'Ownership passed on',
  'account.plan_set': 'Plan set by support',
  'account.credits_granted': 'Credits granted by support',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'billing.order_created': 'Checkout started',
  'billing.plan_upgraded': 'Plan upgraded',
  'billing.payment_not_applied': 'Payment not applied',
  'billing.payment_verification_failed': 'Payment verification failed',
  'billing.subscription_created': 'Checkout started (subscription)',
  'billing.charged': 'Subscription charged',
  'billing.plan_change_scheduled': 'Plan change scheduled for renewal',
  'billing.plan_change_withdrawn': 'Scheduled plan change taken back',
  'billing.past_due': 'Payment failed (grace period)',
  'billing.suspended': 'Account suspended (unpaid)',
  'billing.cancelled': 'Subscription cancelled',
  'billing.subscription_ended': 'Subscription ended at Razorpay',
  'billing.fell_to_free': 'Plan ended, moved to Free',
  'billing.refunded': 'Payment refunded',
  'billing.refund_recorded': 'Refund recorded',
  'billing.state_set': 'Billing state set by support',
  'job.created': 'Bulk job started',
  'job.replayed': 'Job replayed',
  'profile.updated': 'Profile updated',
  'quota.reset': 'Monthly quota reset',
  'retention.purged': 'Old results deleted (90-day retention)',
  'schedule.created': 'Schedule created',
  'schedule.activated': 'Schedule switched on',
  'schedule.deactivated': 'Schedule switched off',
  'schedule.deleted': 'Schedule deleted',
  'schedule.run_failed': 'Scheduled run failed',
  'team.invitation_sent': 'Invitation sent',
  'team.invitation_cancelled': 'Invitation cancelled',
  'team.invitation_accepted': 'Invitation accepted',
  'team.member_removed': 'Member removed',
  'team.member_left': 'Member left the team',
};

/** "api_key.created" → "API key created"; unknown actions read as words. */
export function auditActionLabel(action: string): string {
  const known = LABELS[action];
  if (known) return known;
  const words = action.replace(/[._]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function auditCategoryOf(action: string): AuditCategory | null {
  for (const [key, c] of Object.entries(AUDIT_CATEGORIES) as Array<[AuditCategory, (typeof AUDIT_CATEGORIES)[AuditCategory]]>) {
    if (c.prefixes.some((p) => action.startsWith(p))) return key;
  }
  return null;
}
