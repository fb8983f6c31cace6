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

/**
 * Yields what `produce` pushes, in order, until it settles (its error is thrown to the consumer).
 * When the consumer stops (done or early), `stop` is aborted; with `awaitProducer` the generator then
 * waits for the producer to wind down, otherwise it leaves at once.
 */
export async function* produced<T>(stop: AbortController, produce: (push: (item: T) => void) => Promise<unknown>, o: { awaitProducer: boolean }): AsyncGenerator<T> {
  const out = new Channel<T>();
  const work = produce((item) => out.push(item)).then(
    () => out.end(),
    (err: unknown) => out.end(err),
  );
  try {
    for await (const item of out) yield item;
  } finally {
    stop.abort();
    if (o.awaitProducer) await work;
  }
}
