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
