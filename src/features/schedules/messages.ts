// Spec sections 2, 4, 5 and 8: every user-facing text of Auto Revalidation, verbatim. The dialog's
// validation messages come from server/contracts/schedules.ts, the ones the server answers with.
import { SCHEDULE_MESSAGES } from '../../../server/contracts/schedules';

export const SCHEDULE_TEXT = {
  errorTitle: 'Error',
  nameRequired: SCHEDULE_MESSAGES.nameRequired,
  emailsRequired: SCHEDULE_MESSAGES.emailsRequired,
  noValidEmails: SCHEDULE_MESSAGES.noValidEmails,
  csvParseErrorTitle: 'Error Parsing CSV',
  csvEmpty: SCHEDULE_MESSAGES.csvEmpty,
  csvNoEmailColumn: SCHEDULE_MESSAGES.csvNoEmailColumn,
  createdTitle: 'Schedule Created',
  activatedTitle: 'Schedule Activated',
  deactivatedTitle: 'Schedule Deactivated',
  deletedTitle: 'Schedule Deleted',
  /** Its run in progress was cancelled with it (server: deleteSchedule). */
  deletedRunStopped: (name: string) => `${name}: its run in progress was stopped. The addresses it had checked stay in History; nothing more is charged.`,
  confirmDelete: SCHEDULE_MESSAGES.deleteConfirm,
  never: 'Never',
  pausedInactive: 'Paused: no runs while inactive',
  /** paused_reason 'creator_left' (server: pauseSchedulesOfLeavingUser). */
  pausedCreatorLeft: 'Paused because the team member who created it left the team. Switch it on to keep it running for this account.',
} as const;

export const found = SCHEDULE_MESSAGES.found;

export const FREQUENCIES = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
] as const;

export type Frequency = (typeof FREQUENCIES)[number]['value'];
export const DEFAULT_FREQUENCY: Frequency = 'weekly';
