// The RCPT budget's memory across a restart. A node's share of the fleet budget is held in memory
// (rcpt-budget.ts); a node killed and started again at once would begin with empty windows and could
// send its whole share to an MX again inside the window it had already spent: the fleet above its
// budget for up to a minute. So every grant is written to a journal before its RCPTs go out (one
// small write, to the page cache: it survives the process, kill -9 included), and a starting node
// counts the grants of the last window as its own. A line is `<epoch ms> <count> <MX IP>`; a line
// that does not parse (the write cut short) is skipped. The file is rewritten with only the lines
// still inside the window at start and whenever enough have piled up, through a new file renamed over
// the old one. A journal that cannot be read or written is reported and the node goes on without it
// (the budget then holds within this process only, as before).
import { closeSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { isIP } from 'node:net';

export interface RcptJournal {
  /** Grants made before this process started that are still inside the span: MX IP → send times on `monoNow`'s clock, oldest first. */
  readonly carried: ReadonlyMap<string, number[]>;
  /** Writes down that `n` RCPTs toward `ip` are being sent now. */
  record(ip: string, n: number): void;
  close(): void;
}

export interface RcptJournalOptions {
  path: string;
  /** How far back grants count (the budget's window plus one spacing). */
  spanMs: number;
  /** Wall clock (epoch ms): the journal outlives the process, so its times must too. */
  wallNow?: () => number;
  /** The budget's own clock, which the carried times are converted to. */
  monoNow?: () => number;
  /** Rewrite the file after this many grants (only the lines inside the span are kept). */
  compactEvery?: number;
  warn?: (message: string) => void;
}

interface Entry {
  at: number;
  n: number;
  ip: string;
}

const MAX_COUNT = 1_000_000;

export function openRcptJournal(o: RcptJournalOptions): RcptJournal {
  const wallNow = o.wallNow ?? Date.now;
  const monoNow = o.monoNow ?? (() => performance.now());
  const warn = o.warn ?? ((m: string) => process.stderr.write(`mailvet probe: ${m}\n`));
  const compactEvery = o.compactEvery ?? 10_000;
  let entries = readEntries(o.path, wallNow(), o.spanMs, warn);

  const carried = new Map<string, number[]>();
  const wallAtStart = wallNow();
  const monoAtStart = monoNow();
  for (const e of entries) {
    const times = carried.get(e.ip) ?? [];
    // A time ahead of the clock (the clock was set back) counts as now: it then leaves the span last.
    const at = monoAtStart - (wallAtStart - Math.min(e.at, wallAtStart));
    for (let k = 0; k < e.n; k++) times.push(at);
    carried.set(e.ip, times);
  }
  for (const times of carried.values()) times.sort((a, b) => a - b);

  let fd: number | null = null;
  let sinceCompaction = 0;
  const fail = (what: string, err: unknown): void => {
    warn(`the fleet RCPT budget's journal ${o.path} could not be ${what} (${(err as Error).message}); the budget holds within this process only, not across a restart`);
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        /* already gone */
      }
    }
    fd = null;
  };
  /** Writes the entries still inside the span to a new file, renames it over the journal and appends to it from then on. */
  const rewrite = (): boolean => {
    const cutoff = wallNow() - o.spanMs;
    entries = entries.filter((e) => e.at > cutoff);
    const tmp = `${o.path}.${process.pid}.tmp`;
    let next: number | null = null;
    try {
      try {
        unlinkSync(tmp); // left by an earlier process with this pid
      } catch {
        /* none */
      }
      next = openSync(tmp, 'wx', 0o600);
      if (entries.length > 0) writeSync(next, entries.map(line).join(''));
      renameSync(tmp, o.path);
    } catch (err) {
      if (next !== null) closeSync(next);
      try {
        unlinkSync(tmp);
      } catch {
        /* never created */
      }
      fail('rewritten', err);
      return false;
    }
    if (fd !== null) closeSync(fd);
    fd = next;
    sinceCompaction = 0;
    return true;
  };
  rewrite();

  return {
    carried,
    record(ip, n) {
      if (fd === null || n <= 0) return;
      const e = { at: wallNow(), n, ip };
      try {
        writeSync(fd, line(e));
      } catch (err) {
        fail('written', err);
        return;
      }
      entries.push(e);
      if (++sinceCompaction >= compactEvery) rewrite();
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

const line = (e: Entry): string => `${e.at} ${e.n} ${e.ip}\n`;

/** The journal's entries inside the span; none when there is no journal yet or it is not a file of ours. */
function readEntries(path: string, now: number, spanMs: number, warn: (m: string) => void): Entry[] {
  let text: string;
  try {
    const st = lstatSync(path);
    if (!st.isFile() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) {
      warn(`the fleet RCPT budget's journal ${path} is not a file of this user's; it is replaced`);
      return [];
    }
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`the fleet RCPT budget's journal ${path} could not be read (${(err as Error).message}); starting without it`);
    return [];
  }
  const out: Entry[] = [];
  for (const raw of text.split('\n')) {
    const [at, n, ip, extra] = raw.split(' ');
    if (extra !== undefined || at === undefined || n === undefined || ip === undefined) continue;
    const e = { at: Number(at), n: Number(n), ip };
    if (!Number.isSafeInteger(e.at) || !Number.isSafeInteger(e.n) || e.n < 1 || e.n > MAX_COUNT || isIP(ip) === 0) continue;
    if (e.at > now - spanMs) out.push(e);
  }
  return out;
}
