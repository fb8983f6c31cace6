// A small unbounded async queue: producers push, one consumer iterates with for-await.
export class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: ((r: IteratorResult<T>) => void) | null = null;
  private failWaiter: ((e: unknown) => void) | null = null;
  private ended = false;
  private error: unknown = null;

  push(item: T): void {
    if (this.ended) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = this.failWaiter = null;
      w({ value: item, done: false });
    } else this.items.push(item);
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error ?? null;
    if (this.waiter) {
      const w = this.waiter;
      const f = this.failWaiter;
      this.waiter = this.failWaiter = null;
      if (this.error && f) f(this.error);
      else w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.ended) return this.error ? Promise.reject(this.error) : Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.waiter = resolve;
          this.failWaiter = reject;
        });
      },
    };
  }
}
