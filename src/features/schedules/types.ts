import type { Frequency } from './messages';

/** What changed between a schedule's last two runs (when the server reports it). */
export interface ScheduleChanges {
  /** Addresses that were valid or risky before and are invalid now. */
  newlyInvalid: string[];
  jobId?: string | null;
}

/** Spec section 3, Auto-revalidation schedule, as the list shows it. */
export interface ScheduleItem {
  id: string;
  name: string;
  description: string | null;
  frequency: Frequency;
  is_active: boolean;
  email_count: number;
  total_runs: number;
  last_run_at: string | null;
  created_at: string;
  changes?: ScheduleChanges | null;
}
