// Live job changes: one LISTEN 'validation_job' connection per process, fanned out to every
// subscriber in it. The trigger on validation_job NOTIFYs on any insert/update/delete, whichever
// process (web, worker, CLI) made it, so every web process sees every change.
// When that connection is lost (a database restart or failover, a pooler or an operator ending it),
// the NOTIFYs sent until a new LISTEN is in place are gone for good: every subscriber is told
// (onLost) and its stream ends, so the page reconnects and reloads what it shows (polling while it
// cannot). A stream kept open across the loss showed a job finished meanwhile as processing until
// the page was reloaded. The next subscriber opens a new connection.
import pg from 'pg';

export interface JobChangeEvent {
  op: 'INSERT' | 'UPDATE' | 'DELETE';
  jobId: string;
  accountId: string;
}

type Listener = (e: JobChangeEvent) => void;

interface Subscriber {
  onEvent: Listener;
  /** The LISTEN connection was lost: changes may have been missed, and no more are heard. */
  onLost?: () => void;
}

export class JobEventHub {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly listeners = new Set<Subscriber>();
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly connectionString: string) {}

  /**
   * Subscribes; resolves once LISTEN is active. The returned function unsubscribes. Should the
   * connection be lost, `onLost` is called and the subscriber is dropped (subscribe again).
   */
  async subscribe(fn: Listener, onLost?: () => void): Promise<() => void> {
    const sub: Subscriber = { onEvent: fn, onLost };
    this.listeners.add(sub);
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    try {
      await this.ensureListening();
    } catch (err) {
      this.listeners.delete(sub);
      throw err;
    }
    return () => {
      this.listeners.delete(sub);
      if (this.listeners.size === 0 && !this.idleTimer) {
        // Keep the connection a little in case the page reconnects; then give it back.
        this.idleTimer = setTimeout(() => {
          this.idleTimer = null;
          if (this.listeners.size === 0) void this.disconnect();
        }, 5_000);
        this.idleTimer.unref();
      }
    };
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  private async ensureListening(): Promise<void> {
    if (this.client) return;
    if (!this.connecting) {
      this.connecting = this.connect().finally(() => {
        this.connecting = null;
      });
    }
    await this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'mailvet-job-events' });
    client.on('notification', (msg) => {
      if (msg.channel !== 'validation_job' || !msg.payload) return;
      let e: JobChangeEvent;
      try {
        const p = JSON.parse(msg.payload) as { op: JobChangeEvent['op']; id: string; account_id: string };
        e = { op: p.op, jobId: p.id, accountId: p.account_id };
      } catch {
        return;
      }
      for (const l of this.listeners) {
        try {
          l.onEvent(e);
        } catch (err) {
          console.error('[job-events] listener failed:', err);
        }
      }
    });
    client.on('error', (err) => {
      console.error('[job-events] connection error:', err.message);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query('LISTEN validation_job');
    } catch (err) {
      void client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
  }

  /**
   * The LISTEN connection `client` is gone: what was notified until a new one listens is lost, so
   * every subscriber is told and dropped (their streams end; a reconnecting page reloads).
   */
  private lost(client: pg.Client): void {
    if (this.client !== client) return; // not yet listening (connect() fails instead), or already handled
    this.client = null;
    void client.end().catch(() => undefined);
    const subs = [...this.listeners];
    this.listeners.clear();
    for (const l of subs) {
      try {
        l.onLost?.();
      } catch (err) {
        console.error('[job-events] listener failed:', err);
      }
    }
  }

  private async disconnect(): Promise<void> {
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await this.disconnect();
  }
}

const hubs = new WeakMap<pg.Pool, JobEventHub>();

/** The process's hub for this database (one per pool). */
export function jobEventHub(pool: pg.Pool): JobEventHub {
  let hub = hubs.get(pool);
  if (!hub) {
    const cs = pool.options.connectionString;
    if (!cs) throw new Error('job events need a connection string');
    hub = new JobEventHub(cs);
    hubs.set(pool, hub);
    // When the pool ends (process stop), end the LISTEN connection too.
    const end = pool.end.bind(pool);
    const h = hub;
    pool.end = (async (...args: unknown[]) => {
      await h.close();
      return (end as (...a: unknown[]) => unknown)(...args);
    }) as typeof pool.end;
  }
  return hub;
}

/** Turns hub callbacks into an async iterator for one subscriber until the signal aborts. */
export async function* accountJobEvents(pool: pg.Pool, accountId: string, signal: AbortSignal | undefined): AsyncGenerator<JobChangeEvent> {
  const queue: JobChangeEvent[] = [];
  let wake: (() => void) | null = null;
  let lost = false;
  const unsubscribe = await jobEventHub(pool).subscribe(
    (e) => {
      if (e.accountId !== accountId) return;
      queue.push(e);
      wake?.();
    },
    () => {
      // Changes may have been missed: the stream ends (after what was heard), the page reconnects and reloads.
      lost = true;
      wake?.();
    },
  );
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    while (!signal?.aborted) {
      if (lost && queue.length === 0) return;
      if (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      yield queue.shift()!;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
