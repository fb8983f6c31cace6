export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** Spec section 4: progress is the rounded percent of processed over total. */
export function progressPercent(processed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((processed / total) * 100));
}

/** Results can be viewed only when not pending or processing; download when completed or cancelled (what was done). */
export const canViewResults = (status: JobStatus) => status !== 'pending' && status !== 'processing';
export const canDownload = (status: JobStatus) => status === 'completed' || status === 'cancelled';
/** A job still running can be cancelled. */
export const canCancel = (status: JobStatus) => status === 'pending' || status === 'processing';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

const shortDateTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** "Nov 22, 10:33 PM": for dense tables (the full ISO time is in the cell's title). */
export function formatShortDateTime(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? '' : shortDateTime.format(d);
}

export function formatTime(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? '' : timeOnly.format(d);
}

export function formatDateTime(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? '' : dateTime.format(d);
}

export function formatDate(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? '' : dateOnly.format(d);
}

export const formatCount = (n: number) => n.toLocaleString('en-US');
