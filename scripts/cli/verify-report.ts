// What `mailvet verify` shows and writes besides the verifying: the result CSV's rows, the progress
// bar on a TTY, and the summary by result and reason at the end.
import type { VerificationResult } from '../../probe/contract';
import { RESULT_CSV_COLUMNS } from '../../server/contracts/jobs';
import { csvCell } from '../../server/lib/csv-cell';

/** The columns of the CLI's result CSV: the dashboard download's, plus the machine-readable reason. */
export const CLI_CSV_COLUMNS = [...RESULT_CSV_COLUMNS, 'Reason'] as const;

const yesNo = (b: boolean): string => (b ? 'Yes' : 'No');

export function resultCsvLine(r: VerificationResult, checkedAt: Date): string {
  return [
    csvCell(r.email),
    csvCell(r.result),
    csvCell(r.deliverability_score),
    csvCell(yesNo(r.is_syntax_valid)),
    csvCell(yesNo(r.is_dns_valid)),
    csvCell(yesNo(r.is_mx_valid)),
    csvCell(yesNo(r.is_smtp_valid)),
    csvCell(yesNo(r.role_detected)),
    csvCell(yesNo(r.disposable_provider)),
    csvCell(checkedAt.toISOString()),
    csvCell(r.reason),
  ].join(',');
}

export const fmt = (n: number): string => n.toLocaleString('en-US');

export const plural = (n: number, noun: string): string => `${fmt(n)} ${noun}${n === 1 ? '' : 's'}`;

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** One progress line: bar, count, rate and ETA (e.g. "[#####-----]  50% 1,000/2,000 · 250/s · ETA 0:04"). */
export function progressLine(done: number, total: number, elapsedMs: number, width = 24): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * width);
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const eta = rate > 0 ? (total - done) / rate : Infinity;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${fmt(done)}/${fmt(total)} · ${fmt(Math.round(rate))}/s · ETA ${clock(eta)}`;
}

/** Counts of results by result and by reason, kept as they come (a whole list is never held for them). */
export class ResultTally {
  count = 0;
  private readonly byResult = new Map<string, number>();
  private readonly byReason = new Map<string, number>();

  add(r: Pick<VerificationResult, 'result' | 'reason'>): void {
    this.count++;
    this.byResult.set(r.result, (this.byResult.get(r.result) ?? 0) + 1);
    this.byReason.set(r.reason, (this.byReason.get(r.reason) ?? 0) + 1);
  }

  /** The end-of-run summary: counts by result, then by reason (most frequent first). */
  summary(elapsedMs: number, expected: number): string {
    const pct = (n: number): string => (this.count > 0 ? `${((n * 100) / this.count).toFixed(1)}%` : '0%');
    const rate = elapsedMs > 0 ? (this.count * 1000) / elapsedMs : 0;
    const lines = [`Verified ${fmt(this.count)} of ${fmt(expected)} addresses in ${(elapsedMs / 1000).toFixed(1)} s (${fmt(Math.round(rate))}/s)`, 'By result:'];
    for (const k of ['valid', 'invalid', 'risky']) lines.push(`  ${k.padEnd(20)} ${fmt(this.byResult.get(k) ?? 0).padStart(9)}  ${pct(this.byResult.get(k) ?? 0)}`);
    lines.push('By reason:');
    for (const [k, n] of [...this.byReason].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) lines.push(`  ${k.padEnd(20)} ${fmt(n).padStart(9)}  ${pct(n)}`);
    return `${lines.join('\n')}\n`;
  }
}

export class Progress {
  private readonly started = Date.now();
  private last = 0;
  private done = 0;
  constructor(
    /** Addresses to verify; on stdin it grows as lines come in. */
    public total: number,
    private readonly enabled: boolean,
  ) {}
  tick(): void {
    this.done++;
    const now = Date.now();
    if (this.enabled && (now - this.last >= 100 || this.done === this.total)) {
      this.last = now;
      process.stderr.write(`\r${progressLine(this.done, this.total, now - this.started)}\u001b[K`);
    }
  }
  end(): void {
    if (this.enabled) process.stderr.write('\n');
  }
}
