// How the engine waits: on a batch's setup (letting I/O through), on score hints that may come
// late, and on work that must stop the moment its caller has gone.
import { abortError } from './smtp/semaphore';

/** Lets waiting I/O through once the synchronous work since the last pause is longer than `sliceMs`. */
export class SetupSlice {
  private since = performance.now();

  constructor(private readonly sliceMs: number) {}

  due(): boolean {
    return performance.now() - this.since >= this.sliceMs;
  }

  /** Throws when `signal` was aborted meanwhile (the batch's caller has gone). */
  async pause(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal.aborted) throw abortError();
    this.since = performance.now();
  }
}

/** A hint's promise whose value can be read at once after it has settled (`fallback` if it failed). */
export class Hint<T> {
  settled = false;
  value: T;

  constructor(
    private readonly promise: Promise<T>,
    private readonly fallback: T,
  ) {
    this.value = fallback;
    promise.then(
      (v) => {
        this.settled = true;
        this.value = v;
      },
      () => {
        this.settled = true;
      },
    );
  }

  /** The value if it settles within `ms`, else the fallback. */
  within(ms: number): Promise<T> {
    return this.settled ? Promise.resolve(this.value) : within(this.promise, ms, this.fallback);
  }
}

/** `p`'s value if it settles within `ms`, else `fallback` (the work goes on and fills the caches). */
export function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise<T>((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/** Rejects with AbortError as soon as the signal fires, whatever `p` is still doing. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
