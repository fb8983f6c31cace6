// Catch-all answers that come from a fleet peer. When ProbeClient splits a domain over several nodes,
// one node (the domain's home) asks the random mailbox; the others get their shares at once, marked
// "catch-all pending", and ask none. The client hands them the home node's answer as soon as it has
// it (POST /v1/catch-all); until then their "accepted" answers wait. An answer that comes first waits
// here for the share; a share whose answer never comes is told "nothing learnt" (null) after waitMs
// and asks the random mailbox itself.

interface Entry {
  promise: Promise<boolean | null>;
  resolve: (value: boolean | null) => void;
  settled: boolean;
  timer: NodeJS.Timeout | null;
}

/** How long an answer that came before its share is kept for it. */
const KEEP_MS = 60_000;
const MAX_ENTRIES = 10_000;

export class PeerCatchAll {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly waitMs: number) {}

  /** The peer's answer for `key` (the client's domain key) once it comes; null after waitMs without one. */
  wait(key: string): Promise<boolean | null> {
    const entry = this.entry(key);
    if (!entry.settled && entry.timer === null) {
      entry.timer = setTimeout(() => this.settle(key, entry, null, 0), this.waitMs);
      entry.timer.unref();
    }
    return entry.promise;
  }

  /** The peer's answer for `key` (null: it learnt nothing): shares waiting for it go on. */
  answer(key: string, value: boolean | null): void {
    const entry = this.entry(key);
    if (!entry.settled) this.settle(key, entry, value, KEEP_MS);
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      let resolve!: (value: boolean | null) => void;
      const promise = new Promise<boolean | null>((r) => (resolve = r));
      entry = { promise, resolve, settled: false, timer: null };
      this.entries.set(key, entry);
      if (this.entries.size > MAX_ENTRIES) {
        const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
        this.settle(oldestKey, oldest, null, 0);
      }
    }
    return entry;
  }

  /** Settles an entry; keeps it `keepMs` for a share still to come (0: forgets it now). */
  private settle(key: string, entry: Entry, value: boolean | null, keepMs: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    entry.settled = true;
    entry.resolve(value);
    if (keepMs <= 0) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      return;
    }
    const forget = setTimeout(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    }, keepMs);
    forget.unref();
  }
}
