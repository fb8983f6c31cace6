// Spec sections 5, 6 and 8: the Team screen's texts, verbatim where the spec gives them.
export const TEAM_TEXT = {
  /** A member past the plan's team size (the plan fell): server/features/account/membership.ts. */
  noSeat: 'No seat',
  seatlessNotice: (team: string, limit: number) =>
    `You no longer have a seat in ${team}: its plan allows ${limit} team member(s) total, so you are working in your own account. Ask its owner to upgrade or free a seat.`,
  noSeatHint: (limit: number) => `Your plan allows ${limit} team member(s) total: this member cannot use the account until you upgrade or remove someone.`,
  errorTitle: 'Error',
  loadFailed: 'Failed to load team data',
  inviteFailed: 'Failed to send invitation',
  removeFailed: 'Failed to remove team member',
  cancelFailed: 'Failed to cancel invitation',
  enterEmail: 'Please enter an email address',
  invitationSentTitle: 'Invitation Sent',
  invitationSentBody: (email: string) => `We've emailed an invitation to ${email}.`,
  invitationCancelledTitle: 'Invitation Cancelled',
  invitationCancelledBody: (email: string) => `The invitation to ${email} no longer works.`,
  memberRemovedTitle: 'Member Removed',
  memberRemovedBody: (email: string, schedulesPaused = 0) =>
    `${email} no longer has access to this account.${schedulesPaused > 0 ? ` ${schedulesPaused} schedule(s) they created are paused: switch them on under Auto Revalidation to keep them running.` : ''}`,
  removeBody: (email: string) =>
    `${email} will lose access to this account straight away: the API keys they created stop working, the webhook endpoints they added are deleted and the schedules they created are paused. You can invite them again later.`,
  leaveLabel: 'Leave Team',
  leaveTitle: 'Leave this team?',
  leaveBody: 'You will leave this account straight away: you lose access to its data, the API keys you created here stop working, the webhook endpoints you added are deleted and the schedules you created are paused. An owner or admin can invite you again.',
  leftTitle: 'Left Team',
  leftBody: () => 'You no longer have access to that account.',
  leaveFailed: 'Failed to leave the team',
  leaveSeatless: (team: string) => `Leave ${team}`,
  leaveSeatlessBody: (team: string) => `You will no longer be a member of ${team}, the API keys you created there are revoked, the webhook endpoints you added are deleted and the schedules you created are paused. An owner or admin can invite you again.`,
  leftTeamBody: (team: string) => `You are no longer a member of ${team}.`,
  upgradeTitle: 'Upgrade to add team members',
  upgradeLimit: (n: number) => `Your current plan allows ${n} team member(s) total`,
  /** On the invitation's sign-in page, in the visitor's own time (server: INVITATION_EXPIRES_HOURS after it was sent). */
  invitationExpires: (when: string) => `The invitation expires on ${when}, your time.`,
  invitationAcceptedTitle: 'Invitation Accepted',
  invitationAcceptedBody: (account: string) => `You've joined ${account}.`,
} as const;

export const ROLE_LABELS = { owner: 'Owner', admin: 'Admin', member: 'Member' } as const;
