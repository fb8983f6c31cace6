// A minimal SMTP client connection over raw net/tls sockets: it writes command lines (several at
// once when pipelining), reads complete multi-line replies in order, upgrades to TLS in place, and
// puts a timeout on every wait. It never sends DATA: the probe only asks.
import net from 'node:net';
import tls from 'node:tls';
import { StringDecoder } from 'node:string_decoder';
import { parseReplyLines, type Reply } from './reply-codes';

export type SmtpErrorKind = 'connect' | 'timeout' | 'closed' | 'protocol' | 'tls' | 'aborted';

export class SmtpError extends Error {
  constructor(
    readonly kind: SmtpErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

/**
 * The source address to speak from toward `mxIp`: the configured address of the same family
 * (IPv4 or IPv6), or undefined (let the kernel choose) when none is configured for that family.
 */
export function sourceFor(sources: readonly string[], mxIp: string): string | undefined {
  const family = net.isIP(mxIp);
  return sources.find((s) => net.isIP(s) === family);
}

export interface RawReply extends Reply {
  lines: string[];
}

const MAX_LINE = 4096;
const MAX_REPLY_LINES = 200;

export class SmtpConnection {
  private socket: net.Socket;
  private decoder = new StringDecoder('utf8');
  private buffer = '';
  private pendingLines: string[] = [];
  private readonly replies: RawReply[] = [];
  private waiter: { resolve: (r: RawReply) => void; reject: (e: Error) => void } | null = null;
  private failure: SmtpError | null = null;
  private readonly closedPromise: Promise<void>;
  private markClosed!: () => void;
  private readonly onData = (chunk: Buffer): void => this.feed(this.decoder.write(chunk));
  private readonly onError = (err: Error): void => this.fail(new SmtpError('closed', err.message));
  private readonly onClose = (): void => {
    this.fail(new SmtpError('closed', 'connection closed by server'));
    this.markClosed();
  };

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.closedPromise = new Promise((resolve) => (this.markClosed = resolve));
    this.attach(socket);
  }

  /**
   * Opens a TCP connection, failing with kind 'connect' on refusal or timeout. `localAddress` binds
   * the outgoing side to this node's source address (PROBE_SOURCE_IP): receivers count connections
   * per client IP, so a fleet of nodes is only polite when each one speaks from its own address.
   */
  static connect(ip: string, port: number, timeoutMs: number, signal?: AbortSignal, localAddress?: string): Promise<SmtpConnection> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new SmtpError('aborted', 'aborted'));
      const socket = net.connect({ host: ip, port, noDelay: true, ...(localAddress ? { localAddress } : {}) });
      const done = (err: SmtpError | null): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.off('error', onError);
        socket.off('connect', onConnect);
        if (err) {
          socket.destroy();
          reject(err);
        } else resolve(new SmtpConnection(socket));
      };
      const onConnect = (): void => done(null);
      const onError = (e: Error): void => done(new SmtpError('connect', `connect ${ip}:${port}: ${(e as NodeJS.ErrnoException).code ?? e.message}`));
      const onAbort = (): void => done(new SmtpError('aborted', 'aborted'));
      const timer = setTimeout(() => done(new SmtpError('connect', `connect ${ip}:${port}: timed out after ${timeoutMs} ms`)), timeoutMs);
      socket.once('connect', onConnect);
      socket.once('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  get closed(): Promise<void> {
    return this.closedPromise;
  }

  get isTls(): boolean {
    return this.socket instanceof tls.TLSSocket;
  }

  /** Writes command lines in one packet (one line unless pipelining). */
  write(lines: string[]): void {
    if (this.failure) return;
    this.socket.write(lines.map((l) => `${l}\r\n`).join(''));
  }

  /** Waits for the next complete reply. */
  read(timeoutMs: number, signal?: AbortSignal): Promise<RawReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(new SmtpError('aborted', 'aborted'));
    return new Promise<RawReply>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiter = null;
      };
      const onAbort = (): void => {
        finish();
        reject(new SmtpError('aborted', 'aborted'));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new SmtpError('timeout', `no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = {
        resolve: (r) => {
          finish();
          resolve(r);
        },
        reject: (e) => {
          finish();
          reject(e);
        },
      };
    });
  }

  /** Upgrades the connection to TLS after a 220 to STARTTLS. Certificates are not checked: we only ask. */
  upgradeTls(servername: string | null, timeoutMs: number): Promise<void> {
    const raw = this.socket;
    this.detach(raw);
    this.buffer = '';
    this.pendingLines = [];
    return new Promise((resolve, reject) => {
      const secure = tls.connect({
        socket: raw,
        servername: servername && !net.isIP(servername) ? servername : undefined,
        rejectUnauthorized: false,
        minVersion: 'TLSv1',
      });
      const timer = setTimeout(() => fail(new SmtpError('tls', `TLS handshake timed out after ${timeoutMs} ms`)), timeoutMs);
      const fail = (err: SmtpError): void => {
        clearTimeout(timer);
        secure.off('secureConnect', ok);
        secure.destroy();
        raw.destroy();
        this.fail(err);
        this.markClosed();
        reject(err);
      };
      const ok = (): void => {
        clearTimeout(timer);
        secure.off('error', onErr);
        this.socket = secure;
        this.decoder = new StringDecoder('utf8');
        this.attach(secure);
        resolve();
      };
      const onErr = (e: Error): void => fail(new SmtpError('tls', `TLS handshake failed: ${e.message}`));
      secure.once('secureConnect', ok);
      secure.once('error', onErr);
    });
  }

  /**
   * Sends QUIT, waits briefly for its reply, then closes gracefully (our FIN after the server's),
   * so that when `closed` resolves the server has let go of the connection too. Never throws.
   * `signal`: the caller has gone — the goodbye is cut short and the connection closed at once.
   */
  async quit(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (!this.failure && !signal?.aborted) {
      this.write(['QUIT']);
      return this.finish(timeoutMs, signal);
    }
    this.destroy();
  }

  /** After a pipelined QUIT: waits briefly for its reply, then closes gracefully. Never throws. */
  async finish(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const onAbort = (): void => this.destroy();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.read(timeoutMs);
      this.socket.end();
      const timer = setTimeout(() => this.destroy(), timeoutMs);
      await this.closedPromise;
      clearTimeout(timer);
    } catch {
      this.destroy();
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  destroy(): void {
    this.fail(new SmtpError('closed', 'connection closed'));
    this.socket.destroy(); // 'close' follows and resolves `closed`
  }

  private attach(socket: net.Socket): void {
    socket.on('data', this.onData);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
  }

  private detach(socket: net.Socket): void {
    socket.off('data', this.onData);
    socket.off('error', this.onError);
    socket.off('close', this.onClose);
  }

  private feed(text: string): void {
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.takeLine(line);
      if (this.failure) return;
    }
    if (this.buffer.length > MAX_LINE) this.protocolError('reply line too long');
  }

  private takeLine(line: string): void {
    const m = /^(\d{3})([ -]|$)/.exec(line);
    if (!m) return this.protocolError(`malformed reply line: ${line.slice(0, 80)}`);
    this.pendingLines.push(line.slice(0, MAX_LINE));
    if (this.pendingLines.length > MAX_REPLY_LINES) return this.protocolError('reply has too many lines');
    if (m[2] === '-') return;
    const lines = this.pendingLines;
    this.pendingLines = [];
    const reply: RawReply = { ...parseReplyLines(lines), lines };
    if (this.waiter) this.waiter.resolve(reply);
    else this.replies.push(reply);
  }

  private protocolError(message: string): void {
    this.fail(new SmtpError('protocol', message));
    this.socket.destroy();
  }

  private fail(err: SmtpError): void {
    if (this.failure) return;
    this.failure = err;
    this.waiter?.reject(err);
  }
}
