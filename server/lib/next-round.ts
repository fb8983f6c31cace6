// Concurrent reads of the same thing share one query, without ever answering a caller from a query
// that started before it asked: a caller that arrives while a load of its key is in flight waits for
// the NEXT load, which starts as soon as the current one ends and serves everyone who queued. Every
// answer is therefore as fresh as a query of the caller's own (what a revoked API key needs), while
// under load the number of queries per key is one per round trip instead of one per caller.
interface Round<V> {
  inFlight: boolean;
  next: { promise: Promise<V>; resolve(v: V): void; reject(e: unknown): void } | null;
}

export class NextRoundLoader<K, V> {
  private readonly rounds = new Map<K, Round<V>>();

  constructor(private readonly load: (key: K) => Promise<V>) {}

  get(key: K): Promise<V> {
    let round = this.rounds.get(key);
    if (!round) {
      round = { inFlight: false, next: null };
      this.rounds.set(key, round);
    }
    if (!round.inFlight) return this.start(key, round);
    if (!round.next) {
      let resolve!: (v: V) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<V>((res, rej) => ((resolve = res), (reject = rej)));
      round.next = { promise, resolve, reject };
    }
    return round.next.promise;
  }

  private start(key: K, round: Round<V>): Promise<V> {
    round.inFlight = true;
    let p: Promise<V>;
    try {
      p = this.load(key);
    } catch (err) {
      p = Promise.reject(err);
    }
    const settled = () => {
      round.inFlight = false;
      const waiting = round.next;
      round.next = null;
      if (waiting) this.start(key, round).then(waiting.resolve, waiting.reject);
      else this.rounds.delete(key);
    };
    p.then(settled, settled);
    return p;
  }
}
