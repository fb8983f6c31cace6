import type { Breakdown } from './breakdown';
import type { JobStatus } from './format';
import type { ResultKind } from './status-badge';

/** What the History list shows of a job (spec section 3, Validation job). */
export interface JobItem {
  id: string;
  filename: string;
  status: JobStatus;
  total_emails: number;
  processed_emails: number;
  created_at: string;
  /** Where the job came from: a CSV upload, the API, a schedule run or an operator replay. */
  source?: 'upload' | 'api' | 'schedule' | 'replay';
  /** Started with a test key (mv_test_…): sandbox results, no credits. */
  sandbox?: boolean;
  /** Unfinished and waiting for the verification service to answer again (retried automatically). */
  stalled?: boolean;
  /** The stored reason of a failed job. */
  error?: string | null;
  breakdown?: Breakdown | null;
}

/** One row of the results table (spec section 3, Validation result). */
export interface ResultItem {
  email: string;
  result: ResultKind;
  /** The engine's reason code (probe/contract.ts), when the server sends it. */
  reason?: string;
  deliverability_score: number;
  is_syntax_valid: boolean;
  is_dns_valid: boolean;
  is_mx_valid: boolean;
  is_smtp_valid: boolean;
  role_detected: boolean;
  disposable_provider: boolean;
  checked_at: string;
}
