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

/** A formatter of dates given as ISO strings or Dates, in English as the whole dashboard is written (the browser's language put '25. Nov. 2026' among English words); an unreadable date formats as ''. */
function dateFormatter(options: Intl.DateTimeFormatOptions): (value: string | Date) => string {
  const format = new Intl.DateTimeFormat('en-US', options);
  return (value) => {
    const d = typeof value === 'string' ? new Date(value) : value;
    return Number.isNaN(d.getTime()) ? '' : format.format(d);
  };
}

/** "Nov 22, 10:33 PM": for dense tables (the full ISO time is in the cell's title). */
export const formatShortDateTime = dateFormatter({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
export const formatTime = dateFormatter({ timeStyle: 'short' });
export const formatDateTime = dateFormatter({ dateStyle: 'medium', timeStyle: 'short' });
export const formatDate = dateFormatter({ dateStyle: 'medium' });
const utcDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
/** A calendar day the server counted ('2026-11-24': a UTC day, or the browser's day where the page sent its zone, as Analytics does) as the pages write dates: "Nov 24, 2026", the day itself, whatever the browser's zone. */
export function formatDay(day: string): string {
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : utcDay.format(d);
}

export const formatCount = (n: number) => n.toLocaleString('en-US');
