// Spec texts for Overview and Settings (sections 2 and 8).
export const OVERVIEW_TEXT = {
  credits: 'Credits Balance',
  plan: 'Current Plan',
  month: 'This Month',
  quickAction: 'Quick Action',
  recent: 'Recent Activity',
  recentEmpty: 'No recent activity yet',
  gettingStarted: 'Getting Started',
} as const;

export const SETTINGS_TEXT = {
  successTitle: 'Success',
  profileUpdated: 'Profile updated successfully',
  errorTitle: 'Error',
  profileFailed: 'Failed to update profile',
} as const;

/** A signed-in user whose account no longer exists. */
export const ACCOUNT_GONE_TEXT = {
  title: 'Your account was deleted',
  body: (email: string) => `You are signed in as ${email}, but the Mailvet account you belonged to no longer exists.`,
  noFreeCredits: 'Free validations are given once per person, so a new account starts without them. You can open a new account and choose a paid plan, or ask support to look into it.',
  startPaid: 'Start a paid plan',
  contact: 'Contact support',
} as const;

/** The account switcher in the dashboard header (a user in more than one account). */
export const ACCOUNT_SWITCH_TEXT = {
  menuLabel: (name: string) => `Account: ${name}. Switch account`,
  heading: 'Switch account',
  active: 'Active',
  successTitle: 'Success',
  switched: (name: string) => `Switched to ${name}`,
  errorTitle: 'Error',
  failed: 'Could not switch account',
  roles: { owner: 'Owner', admin: 'Admin', member: 'Member' } as Record<string, string>,
} as const;
