// How `mailvet verify` runs a list of any size: batches verified several at once, each line written
// as soon as it may be (in input order for the CSV), with a bounded number of addresses between
// being read and being written.
import type { VerificationResult } from '../../probe/contract';

/** Addresses handed to the verifier at a time (as the stdin mode batches them). */
export const BATCH_SIZE = 10_000;
/**
 * At most this many addresses are read but not yet written (4 batches): what a run holds, whatever
 * the size of the list. A slow address (a greylisting server) holds back the lines after it, and the
 * reading of the list, never the memory.
 */
export const RESULT_WINDOW = 4 * BATCH_SIZE;

export interface StreamOptions {
  /** Lines in input order (the CSV), or as results come (JSON lines). */
  ordered: boolean;
  batchSize?: number;
  window?: number;
  onRead?: (read: number) => void;
  onResult?: (r: VerificationResult) => void;
  /**
   * A batch short of batchSize is started once no address has come for this long (addresses typed or
   * piped in slowly get their results as they go). Without it, only full batches and the list's end.
   */
  lingerMs?: number;
  /**
   * Stops the run (Ctrl+C): no further address is read or started, the batches under way are cut
   * (their unanswered addresses have no line), and every line already answered is written whole.
   */
  signal?: AbortSignal;
}

/** What waiting for the list's next address gave instead of an address. */
type Pause = 'linger' | 'stop';

/**
 * Verifies `addresses` (unique) batch by batch, several batches at once, and writes one line per
 * result as soon as it may be written: in input order once every address before it has its line
 * (ordered), or as it comes. An address that got no result (the verifier failed) has no line; after
 * a failure no further batch is started. Returns how many addresses were read and the failure.
 */
export async function verifyStream(
  addresses: AsyncIterable<string>,
  verify: (emails: string[]) => AsyncIterable<VerificationResult>,
  line: (r: VerificationResult) => string,
  write: (line: string) => Promise<void>,
  o: StreamOptions,
): Promise<{ read: number; failure: Error | null }> {
  const batchSize = o.batchSize ?? BATCH_SIZE;
  const window = Math.max(o.window ?? RESULT_WINDOW, batchSize);
  const waiting = new Map<number, string | null>(); // ordered: lines that wait for an earlier one
  let next = 0; // ordered: the index of the next line to hand to the writer
  let settled = 0; // addresses whose line is written (or that have none)
  let writing = Promise.resolve();
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  let broken: unknown = null; // the writer's failure: nothing more is written, the caller gets it
  const emit = (l: string | null): void => {
    if (l === null) {
      settled++;
      return;
    }
    writing = writing.then(async () => {
      try {
        if (broken === null) await write(l);
      } catch (err) {
        broken = err;
      } finally {
        settled++;
        poke();
      }
    });
  };
  const deliver = (i: number, l: string | null): void => {
    if (!o.ordered) emit(l);
    else {
      waiting.set(i, l);
      while (waiting.has(next)) {
        const ready = waiting.get(next)!;
        waiting.delete(next);
        next++;
        emit(ready);
      }
    }
    poke();
  };
  const running: Promise<void>[] = [];
  const start = (emails: string[], base: number): void => {
    const index = new Map(emails.map((e, i) => [e, base + i]));
    running.push(
      (async () => {
        try {
          for await (const r of verify(emails)) {
            const i = index.get(r.email);
            if (i === undefined && o.ordered) continue;
            index.delete(r.email);
            o.onResult?.(r);
            deliver(i ?? -1, line(r));
          }
        } catch (err) {
          failure ??= err as Error;
        } finally {
          for (const i of index.values()) deliver(i, null);
        }
      })(),
    );
  };

  const halted = (): boolean => failure !== null || broken !== null || o.signal?.aborted === true;
  o.signal?.addEventListener('abort', poke, { once: true });
  let read = 0;
  let batch: string[] = [];
  /** Starts the batch read so far, then waits while the window is full; false when the run is to stop. */
  const startBatch = async (): Promise<boolean> => {
    start(batch, read - batch.length);
    batch = [];
    while (!halted() && read - settled >= window) await new Promise<void>((resolve) => (wake = resolve));
    return !halted();
  };
  const source = addresses[Symbol.asyncIterator]();
  // The list's next address, asked once and awaited across lingers; null when none is being asked.
  let asked: Promise<IteratorResult<string>> | null = null;
  try {
    while (!halted()) {
      asked ??= source.next();
      const got = await nextOrPause(asked, batch.length > 0 ? o.lingerMs : undefined, o.signal);
      if (got === 'stop') break;
      if (got === 'linger') {
        if (!(await startBatch())) break;
        continue;
      }
      asked = null;
      if (got.done) break;
      batch.push(got.value);
      read++;
      o.onRead?.(read);
      if (batch.length >= batchSize && !(await startBatch())) break;
    }
    if (batch.length > 0 && !halted()) start(batch, read - batch.length);
  } finally {
    o.signal?.removeEventListener('abort', poke);
    // Left early (a failure, Ctrl+C): the reader is closed (a file), not waited for (stdin may never send more).
    if (halted()) {
      asked?.catch(() => undefined);
      void source.return?.()?.catch(() => undefined);
    }
  }
  await Promise.all(running);
  await writing;
  if (broken !== null) throw broken;
  return { read, failure };
}

/** `next`, or 'linger' once `lingerMs` has passed without it, or 'stop' as soon as `signal` aborts. */
function nextOrPause<T>(next: Promise<T>, lingerMs: number | undefined, signal: AbortSignal | undefined): Promise<T | Pause> {
  if (signal?.aborted) return Promise.resolve('stop');
  if (lingerMs === undefined && !signal) return next;
  return new Promise<T | Pause>((resolve, reject) => {
    const timer = lingerMs === undefined ? null : setTimeout(() => done('linger'), lingerMs);
    const onAbort = (): void => done('stop');
    signal?.addEventListener('abort', onAbort, { once: true });
    function done(v: T | Pause): void {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(v);
    }
    next.then(done, (err: unknown) => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
  });
}
