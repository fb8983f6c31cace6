// A counting semaphore with a changeable limit and abortable waits. Waiters are served by priority
// (higher first), first come first served among equals.
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
      // Insert after every waiter of the same or a higher priority.
      let i = this.waiters.length;
      while (i > 0 && (this.waiters[i - 1]?.priority ?? 0) < priority) i--;
      this.waiters.splice(i, 0, waiter);
    });
  }

  release(): void {
    this.active--;
    this.drain();
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
