// The live job stream (spec section 7, Realtime), one per browser rather than one per tab.
//
// Each stream is a server-sent-events request held open for as long as the screen is shown. Over
// HTTP/1.1 a browser opens at most six connections to one host, so six tabs on History or Auto
// Revalidation each holding its own stream left a seventh tab's every call (and its page load)
// waiting for ever. Serving HTTP/2 would lift the limit only where the browser reaches us over TLS
// with h2 end to end (never on a plain-http install or behind a proxy that speaks HTTP/1.1), so the
// tabs share one stream instead: the tab holding the Web Lock `mailvet:job-stream` opens it and
// relays what it hears on a BroadcastChannel; the others listen there and wait for the lock. When
// the leading tab closes or leaves the live screens, the browser hands the lock to a waiting tab,
// which opens the stream anew (its start makes every tab reload, so nothing missed is left stale).
// Without Web Locks or BroadcastChannel (very old browsers) each tab opens its own stream as before.
import { useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '../../lib/trpc';

export interface JobChange {
  jobId: string;
}

interface Listener {
  /** The stream (re)started: anything may have changed while it was down. */
  onStarted?: () => void;
  onEvent?: (e: JobChange) => void;
  onLive: (live: boolean) => void;
}

type Message = { t: 'event'; e: JobChange } | { t: 'live'; live: boolean; started?: boolean } | { t: 'hello' } | { t: 'restart' };

interface Opener {
  (handlers: { onStarted: () => void; onData: (e: JobChange) => void; onLive: (live: boolean) => void; onEnded: () => void }): { unsubscribe: () => void };
}

const LOCK = 'mailvet:job-stream';
const CHANNEL = 'mailvet:job-stream';
/** A tab that leaves the live screens keeps its stream this long (a quick move between them, React's double mount). */
const LINGER_MS = 1500;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

class SharedJobStream {
  private readonly listeners = new Set<Listener>();
  private live = false;
  private channel: BroadcastChannel | null = null;
  private waiting: AbortController | null = null;
  private releaseLock: (() => void) | null = null;
  private stream: { unsubscribe: () => void } | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;
  private retryMs = RETRY_FIRST_MS;
  private running = false;
  private streamId = 0;

  constructor(private readonly open: Opener) {}

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    l.onLive(this.live);
    if (this.lingerTimer) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
    if (!this.running) this.start();
    return () => {
      this.listeners.delete(l);
      if (this.listeners.size === 0 && !this.lingerTimer) {
        this.lingerTimer = setTimeout(() => {
          this.lingerTimer = null;
          if (this.listeners.size === 0) this.stop();
        }, LINGER_MS);
      }
    };
  }

  private start() {
    this.running = true;
    const shared = typeof BroadcastChannel === 'function' && typeof navigator !== 'undefined' && 'locks' in navigator && !!navigator.locks;
    if (!shared) {
      this.lead();
      return;
    }
    const channel = new BroadcastChannel(CHANNEL);
    this.channel = channel;
    channel.onmessage = (m: MessageEvent<Message>) => this.receive(m.data);
    channel.postMessage({ t: 'hello' } satisfies Message);
    const waiting = new AbortController();
    this.waiting = waiting;
    navigator.locks
      .request(LOCK, { signal: waiting.signal }, () => {
        this.waiting = null;
        if (!this.running || this.channel !== channel) return undefined;
        return new Promise<void>((resolve) => {
          this.releaseLock = resolve;
          this.lead();
        });
      })
      .catch(() => undefined); // AbortError: this tab stopped waiting
  }

  private stop() {
    this.running = false;
    this.waiting?.abort();
    this.waiting = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const leading = this.stream !== null || this.releaseLock !== null;
    this.streamId += 1;
    this.stream?.unsubscribe();
    this.stream = null;
    // The others stop trusting a stream that is about to close; one of them takes the lock next.
    if (leading) this.channel?.postMessage({ t: 'live', live: false } satisfies Message);
    this.releaseLock?.();
    this.releaseLock = null;
    this.channel?.close();
    this.channel = null;
    this.live = false;
  }

  /** This tab holds the lock (or cannot share): it opens the stream and relays it. */
  private lead() {
    this.retryTimer = null;
    this.publish({ t: 'live', live: false });
    const id = ++this.streamId;
    const mine = () => this.streamId === id && this.running;
    this.stream = this.open({
      onStarted: () => {
        if (!mine()) return;
        this.retryMs = RETRY_FIRST_MS;
        this.publish({ t: 'live', live: true, started: true });
      },
      onData: (e) => {
        if (mine()) this.publish({ t: 'event', e: { jobId: e.jobId } });
      },
      onLive: (live) => {
        if (mine() && live !== this.live) this.publish({ t: 'live', live });
      },
      // The server ended the stream (a session or membership that ended, an error): open it again
      // after a pause, since a reconnection answers for whoever is signed in now.
      onEnded: () => {
        if (!mine()) return;
        this.streamId += 1; // this stream's later callbacks (onComplete after onError) are ignored
        this.stream?.unsubscribe();
        this.stream = null;
        if (this.live) this.publish({ t: 'live', live: false });
        const wait = this.retryMs;
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        this.retryTimer = setTimeout(() => {
          if (this.running && !this.stream) this.lead();
        }, wait);
      },
    });
  }

  /**
   * The session's account changed (a switch in any tab): the stream, which answers for the account
   * it was opened in, is opened again at once by whichever tab leads.
   */
  restart() {
    this.publish({ t: 'restart' });
  }

  private publish(m: Message) {
    this.receive(m);
    this.channel?.postMessage(m);
  }

  private receive(m: Message) {
    if (m.t === 'restart') {
      if (!this.stream) return;
      this.streamId += 1;
      this.stream.unsubscribe();
      this.stream = null;
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryMs = RETRY_FIRST_MS;
      this.lead();
      return;
    }
    if (m.t === 'hello') {
      if (this.stream) this.channel?.postMessage({ t: 'live', live: this.live } satisfies Message);
      return;
    }
    if (m.t === 'event') {
      for (const l of [...this.listeners]) l.onEvent?.(m.e);
      return;
    }
    this.live = m.live;
    for (const l of [...this.listeners]) {
      l.onLive(m.live);
      if (m.started) l.onStarted?.();
    }
  }
}

let shared: SharedJobStream | null = null;

/** After an account switch: the live job stream (this browser's, whichever tab holds it) answers for the new account. */
export function restartJobStream(): void {
  shared?.restart();
}

/**
 * Follows every change to the account's jobs, through the one stream this browser keeps. `live`
 * is true while that stream is connected; screens poll instead while it is false (a proxy that
 * buffers or blocks server-sent events, a dropped connection).
 */
export function useJobStream(handlers: Omit<Listener, 'onLive'>): { live: boolean } {
  const client = useTRPCClient();
  const [live, setLive] = useState(false);
  const ref = useRef(handlers);
  ref.current = handlers;

  useEffect(() => {
    shared ??= new SharedJobStream(({ onStarted, onData, onLive, onEnded }) =>
      client.jobs.onChange.subscribe(undefined, {
        onStarted,
        onData: (e) => onData({ jobId: e.jobId }),
        onConnectionStateChange: (s) => onLive(s.state === 'pending'),
        onError: onEnded,
        onComplete: onEnded,
      }),
    );
    return shared.subscribe({
      onStarted: () => ref.current.onStarted?.(),
      onEvent: (e) => ref.current.onEvent?.(e),
      onLive: setLive,
    });
  }, [client]);

  return { live };
}
