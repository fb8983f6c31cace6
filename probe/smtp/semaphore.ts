// A counting semaphore with a changeable limit and abortable waits. Waiters are served by priority
// (higher first), first come first served among equals; a waiter's priority can be raised while it
// waits (someone more pressing now needs what it waits for).
/** A place in a semaphore's queue: `granted` resolves with the slot; `raise` moves a waiting place up. */
export interface QueuePlace {
  granted: Promise<void>;
  /** Serves this place as if it had asked with `priority` now (behind those already at that priority); no-op once granted. */
  raise(priority: number): void;
}

export class Semaphore {
  private active = 0;
  private readonly waiters: Waiter[] = [];

  constructor(private limit: number) {}

  get inUse(): number {
    return this.active;
  }

  get capacity(): number {
    return this.limit;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    this.drain();
  }

  acquire(signal?: AbortSignal, priority = 0): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.active < this.limit && this.waiters.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          if (waiter.onAbort) signal?.removeEventListener('abort', waiter.onAbort);
          resolve();
        },
        priority,
      };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(abortError());
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.insert(waiter);
    });
  }

  /** Queues `waiter` after every waiter of the same or a higher priority. */
  private insert(waiter: Waiter): void {
    let i = this.waiters.length;
    while (i > 0 && (this.waiters[i - 1]?.priority ?? 0) < waiter.priority) i--;
    this.waiters.splice(i, 0, waiter);
  }

  release(): void {
    this.active--;
    this.drain();
  }

  /** Like acquire (without a signal), but the place can be raised while it waits. */
  queue(priority = 0): QueuePlace {
    if (this.active < this.limit && this.waiters.length === 0) {
      this.active++;
      return { granted: Promise.resolve(), raise: () => undefined };
    }
    let waiter: Waiter | undefined;
    const granted = new Promise<void>((resolve) => {
      waiter = { grant: resolve, priority };
      this.insert(waiter);
    });
    return {
      granted,
      raise: (to) => {
        const i = waiter ? this.waiters.indexOf(waiter) : -1;
        if (!waiter || i < 0 || to <= waiter.priority) return;
        this.waiters.splice(i, 1);
        waiter.priority = to;
        this.insert(waiter);
      },
    };
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private drain(): void {
    while (this.active < this.limit && this.waiters.length > 0) {
      const next = this.waiters.shift();
      if (!next) return;
      this.active++;
      next.grant();
    }
  }
}

interface Waiter {
  grant: () => void;
  priority: number;
  onAbort?: () => void;
}

export function abortError(): Error {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  return err;
}
