// Who may do what in an account: the one table of role rules. The server enforces it
// (requirePermission in server/trpc/procedures.ts, on every route that reaches the action) and the
// SPA reads the same table to hide what a role cannot do. Plan gates live beside it in plans.ts.
//
// Reading of the spec (section 6 says only owner and admin manage the team, and leaves the rest of
// the member role "not shown"): a member works with the account's data — validates, uploads and
// runs bulk jobs, reads History, results and downloads, sees schedules, API keys (never a key) and
// the team — but changes nothing about how the account is set up: no API keys, no webhook settings,
// no schedules (create, switch, delete), no invitations or removals, no audit log. Only the owner
// pays (billing).
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

const everyone: readonly Role[] = ['owner', 'admin', 'member'];
const managers: readonly Role[] = ['owner', 'admin'];

export const PERMISSIONS = {
  /** Single checks (dashboard). */
  'validation.check': everyone,
  /** Bulk uploads and jobs; History, results, downloads. */
  'jobs.run': everyone,
  'jobs.read': everyone,
  'schedules.read': everyone,
  /** Create, switch on/off, delete schedules. */
  'schedules.manage': managers,
  'apiKeys.read': everyone,
  'apiKeys.manage': managers,
  /** Webhook signing secret and webhook settings. */
  'webhooks.manage': managers,
  'team.read': everyone,
  /** Invite, cancel invitations, remove members, see pending invitations. */
  'team.manage': managers,
  'billing.pay': ['owner'],
  'audit.read': managers,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return !!role && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export const PERMISSION_DENIED_MESSAGES: Partial<Record<Permission, string>> = {
  'schedules.manage': 'Only the account owner or an admin can change schedules.',
  'apiKeys.manage': 'Only the account owner or an admin can manage API keys.',
  'webhooks.manage': 'Only the account owner or an admin can manage webhook settings.',
  'team.manage': 'Only the account owner or an admin can manage the team.',
  'billing.pay': 'Only the account owner can change the plan.',
  'audit.read': 'Only the account owner or an admin can see the audit log.',
};
