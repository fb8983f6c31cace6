// Spec sections 2, 5 and 8: every user-facing text of Bulk Upload and History, verbatim. Limits and
// upload messages come from server/contracts/jobs.ts, the same ones the server enforces.
import { MAX_EMAILS_PER_FILE, MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../../../server/contracts/jobs';

export { MAX_EMAILS_PER_FILE, MAX_UPLOAD_BYTES };

export const BULK_TEXT = {
  notAvailableTitle: 'CSV Upload Not Available',
  notAvailableBody: 'Bulk CSV upload is included in every paid plan. Upgrade to validate whole lists at once.',
  viewPlans: 'View Plans',
  invalidTypeTitle: UPLOAD_MESSAGES.invalidType.title,
  invalidTypeBody: UPLOAD_MESSAGES.invalidType.message,
  tooLargeTitle: UPLOAD_MESSAGES.tooLarge.title,
  tooLargeBody: UPLOAD_MESSAGES.tooLarge.message,
  uploadSuccessTitle: 'Upload Successful',
  /** Spec 8: Upload Successful shows the email count and the job id; and what of the file was left out, if anything. */
  uploadSuccessBody: (r: { totalEmails: number; jobId: string; skipped: number }) =>
    `${r.totalEmails.toLocaleString('en-US')} email${r.totalEmails === 1 ? '' : 's'} queued for validation. Job ID: ${r.jobId}` +
    (r.skipped > 0
      ? `. ${r.skipped.toLocaleString('en-US')} value${r.skipped === 1 ? ' was' : 's were'} left out: longer than 1,024 characters, too long to be an email address.`
      : ''),
  uploadFailedTitle: UPLOAD_MESSAGES.failed.title,
  uploadFailedFallback: UPLOAD_MESSAGES.failed.message,
} as const;

export const HISTORY_TEXT = {
  errorTitle: 'Error',
  loadHistoryFailed: 'Failed to load validation history',
  loadResultsFailed: 'Failed to load validation results',
  noResultsTitle: 'No Results',
  noResultsBody: 'No validation results found for this job',
  downloadStartedTitle: 'Download Started',
  downloadFailedTitle: 'Download Failed',
  cancelTitle: 'Cancel this job?',
  cancelBody: (filename: string) =>
    `${filename}: addresses not yet checked will not be checked or charged. Results already done are kept and can be downloaded.`,
  cancelledTitle: 'Job Cancelled',
  cancelledBody: (processed: number, unprocessed: number) =>
    `${processed.toLocaleString('en-US')} results kept; ${unprocessed.toLocaleString('en-US')} address${unprocessed === 1 ? '' : 'es'} not checked and not charged.`,
} as const;
