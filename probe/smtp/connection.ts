// A minimal SMTP client connection over raw net/tls sockets: it writes command lines (several at
// once when pipelining), reads complete multi-line replies in order, upgrades to TLS in place, and
// puts a timeout on every wait. It never sends DATA: the probe only asks. Replies must stay in step
// with commands: a reply already waiting when a command is written answers nothing we asked, and
// ends the connection ('out_of_step'), so no reply is ever handed to the wrong command (a waiting
// 421 excepted: the server is closing, and the 421 is read as the next command's reply).
import net from 'node:net';
import tls from 'node:tls';
import { isUtf8 } from 'node:buffer';
import { parseReplyLines, type Reply } from './reply-codes';

/**
 * 'out_of_step': a protocol error where the server sent more replies than we asked for; no reply of
 * the session can be trusted to answer the command it was read for.
 */
export type SmtpErrorKind = 'connect' | 'timeout' | 'closed' | 'protocol' | 'out_of_step' | 'tls' | 'aborted';

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
/** Bytes kept of one line: room for MAX_LINE characters of up to 4 bytes each, plus a CR. */
const MAX_LINE_BYTES = MAX_LINE * 4 + 1;
const MAX_REPLY_LINES = 200;
/**
 * Replies kept unread (come while no read waits: between a session's reads, while it waits for the
 * RCPT budget). A pipelined group is MAIL, the RCPTs of one session and QUIT; past these a server is
 * flooding us with replies nobody asked for, which were kept without bound (the node's memory).
 */
const MAX_QUEUED_REPLIES = 1000;
const MAX_QUEUED_CHARS = 1_000_000;
const charsOf = (r: RawReply): number => r.lines.reduce((n, l) => n + l.length, 0);
const WINDOWS_1252 = new TextDecoder('windows-1252');
const WINDOWS_1251 = new TextDecoder('windows-1251');
const KOI8_R = new TextDecoder('koi8-r');

/**
 * The text of one reply line. SMTP replies should be ASCII, and UTF-8 is read as UTF-8; a line that
 * is not UTF-8 was written in the 8-bit charset of the server's locale, as older European and Russian
 * servers do ("550 5.1.1 Accès refusé" in Windows-1252): read as UTF-8 its words would be lost
 * (U+FFFD for every accented letter) and a refusal about us could read as "no such mailbox". Cyrillic
 * (runs of three or more letters at 0xC0 and above, which no Western language writes) is Windows-1251
 * when its letters are mostly lower-case there (0xE0–0xFF), else KOI8-R (lower-case at 0xC0–0xDF);
 * anything else is Windows-1252. `cut`: the line was cut at MAX_LINE_BYTES (a character may be split).
 */
export function decodeReplyLine(bytes: Buffer, cut = false): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  if (cut) {
    const whole = bytes.subarray(0, utf8WholeLength(bytes));
    if (isUtf8(whole)) return whole.toString('utf8');
  }
  let high = 0;
  let lower = 0;
  let run = 0;
  let cyrillic = false;
  for (const b of bytes) {
    if (b < 0xc0) {
      run = 0;
      continue;
    }
    high++;
    if (b >= 0xe0) lower++;
    if (++run >= 3) cyrillic = true;
  }
  if (!cyrillic) return WINDOWS_1252.decode(bytes);
  return (lower * 2 >= high ? WINDOWS_1251 : KOI8_R).decode(bytes);
}

/** The length of `bytes` without a UTF-8 sequence left incomplete at its end. */
function utf8WholeLength(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const b = bytes[i] ?? 0;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return bytes.length - i < need ? i : bytes.length;
  }
  return bytes.length;
}

export class SmtpConnection {
  private socket: net.Socket;
  /** The bytes of the line being received (at most MAX_LINE_BYTES kept), and how many were kept. */
  private lineParts: Buffer[] = [];
  private lineBytes = 0;
  private lineCut = false;
  private pendingLines: string[] = [];
  private readonly replies: RawReply[] = [];
  /** Characters of the lines of `replies` (each is kept with its text). */
  private queuedChars = 0;
  private waiter: { resolve: (r: RawReply) => void; reject: (e: Error) => void } | null = null;
  private failure: SmtpError | null = null;
  private readonly closedPromise: Promise<void>;
  private markClosed!: () => void;
  /** Called once, when the server's first bytes arrive. */
  private onHeard: (() => void) | null = null;
  private heard = false;
  /** A command has been written (before that, nothing the server sends can answer one). */
  private spoken = false;
  private readonly onData = (chunk: Buffer): void => {
    if (!this.heard) {
      this.heard = true;
      this.onHeard?.();
    }
    this.feed(chunk);
  };
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

  /** Calls `cb` once the server has sent anything (at once if it has). */
  whenHeard(cb: () => void): void {
    if (this.heard) cb();
    else this.onHeard = cb;
  }

  get closed(): Promise<void> {
    return this.closedPromise;
  }

  get isTls(): boolean {
    return this.socket instanceof tls.TLSSocket;
  }

  /**
   * Writes command lines in one packet (one line unless pipelining). Throws 'out_of_step' (and ends
   * the connection) when a reply is already waiting: the server answered something we never asked.
   * A lone waiting 421 is no such reply: the server is closing the connection (RFC 5321 section 3.8;
   * Postfix's error limit writes it right behind a rejection, an idle timeout on its own). Nothing is
   * written then, and the next read takes the 421 as this command's reply, as if it had come later.
   */
  write(lines: string[]): void {
    if (this.failure) return;
    if (this.replies.length === 1 && this.replies[0]?.code === 421) return;
    if (this.replies.length > 0) {
      this.outOfStep(`reply before ${lines[0]?.split(' ')[0] ?? 'command'}: ${this.replies[0]?.lines[0]?.slice(0, 80) ?? ''}`);
      throw this.failure;
    }
    this.send(lines);
  }

  private send(lines: string[]): void {
    this.spoken = true;
    this.socket.write(lines.map((l) => `${l}\r\n`).join(''));
  }

  /** Replies that have come and were not read yet. */
  get waiting(): number {
    return this.replies.length;
  }

  /**
   * Takes the complete replies already received with code `code` (none is waited for): the rest of a
   * greeting written as several complete replies ("220 …\r\n220 …"), sent before we said anything.
   */
  takeQueued(code: number): RawReply[] {
    const taken: RawReply[] = [];
    while (this.replies[0]?.code === code) taken.push(this.shiftReply() as RawReply);
    return taken;
  }

  /** Ends the connection: the server's replies no longer match our commands. */
  outOfStep(message: string): void {
    this.fail(new SmtpError('out_of_step', `out of step: ${message}`));
    this.socket.destroy();
  }

  /** Waits for the next complete reply. */
  read(timeoutMs: number, signal?: AbortSignal): Promise<RawReply> {
    const queued = this.shiftReply();
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

  /**
   * Upgrades the connection to TLS after a 220 to STARTTLS. Certificates are not checked: we only ask.
   * Whatever came in plain text after that 220 (an injected reply, RFC 3207 section 6) is dropped:
   * only what is said inside TLS is read.
   */
  upgradeTls(servername: string | null, timeoutMs: number): Promise<void> {
    const raw = this.socket;
    this.detach(raw);
    this.clearLine();
    this.pendingLines = [];
    this.replies.length = 0;
    this.queuedChars = 0;
    return new Promise((resolve, reject) => {
      const secure = tls.connect({
        socket: raw,
        servername: servername && !net.isIP(servername) ? servername : undefined,
        rejectUnauthorized: false,
        // Any protocol and cipher the server has: nothing is checked (we only ask), and OpenSSL 3's
        // default security level refuses TLS 1.0/1.1 whatever minVersion says, so a server that runs
        // only those (older Exchange, appliances) and requires TLS before MAIL refused us in plain text.
        minVersion: 'TLSv1',
        ciphers: 'DEFAULT:@SECLEVEL=0',
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
      this.send(['QUIT']); // a goodbye: whatever the server said before it no longer matters
      return this.finish(timeoutMs, signal);
    }
    this.destroy();
  }

  /** After a QUIT already written: waits briefly for its reply, then closes gracefully. Never throws. */
  async finish(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.close(timeoutMs, signal, true);
  }

  /**
   * Closes gracefully once QUIT is answered (`readReply`: waits briefly for that answer first), so
   * that when `closed` resolves the server has let go of the connection too. Never throws.
   */
  async close(timeoutMs: number, signal?: AbortSignal, readReply = false): Promise<void> {
    const onAbort = (): void => this.destroy();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (readReply) await this.read(timeoutMs);
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

  private feed(chunk: Buffer): void {
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
      this.append(chunk.subarray(start, nl));
      start = nl + 1;
      const line = decodeReplyLine(Buffer.concat(this.lineParts, this.lineBytes), this.lineCut).replace(/\r$/, '').slice(0, MAX_LINE);
      this.clearLine();
      this.takeLine(line);
      if (this.failure) return;
    }
    this.append(chunk.subarray(start));
  }

  /**
   * Adds bytes to the line being received. A line longer than MAX_LINE characters keeps its first
   * MAX_LINE (the bytes kept leave room for them and their CR); the rest is dropped up to its LF,
   * however it was segmented.
   */
  private append(bytes: Buffer): void {
    const room = MAX_LINE_BYTES - this.lineBytes;
    if (bytes.length > room) this.lineCut = true;
    if (room <= 0 || bytes.length === 0) return;
    const kept = bytes.length > room ? bytes.subarray(0, room) : bytes;
    // Copied: the chunk's memory is not held on to past this line.
    this.lineParts.push(Buffer.from(kept));
    this.lineBytes += kept.length;
  }

  private clearLine(): void {
    this.lineParts = [];
    this.lineBytes = 0;
    this.lineCut = false;
  }

  private takeLine(raw: string): void {
    // Control characters (NUL above all: a jsonb column refuses U+0000) never leave the connection.
    const line = raw.replace(/\t/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '\ufffd');
    const m = /^(\d{3})([ -]|$)/.exec(line);
    const first = this.pendingLines[0];
    if (!m && first === undefined) {
      // Outside any reply, a blank line (a reply ended twice, "\n\r\n") or, before we have said
      // anything, a line of text (a preamble before the 220) answers no command: skipped, as Postfix's
      // client skips such text. Any other line without a code may be a garbled reply: the session ends.
      if (raw.trim() === '' || !this.spoken) return;
      return this.protocolError(`malformed reply line: ${line.slice(0, 80)}`);
    }
    // Inside a multi-line reply, a line without a code is more of its text (Postfix's client
    // tolerates it too): it is kept as a continuation line of that reply.
    const more = !m || m[2] === '-';
    // Past MAX_REPLY_LINES a reply's continuation lines are read and dropped (a 300-line legal notice
    // in a greeting, an EHLO of hundreds of extensions), its last line kept: the reply is what its
    // first lines and its last say, as an MTA reads it. One that never ends meets its read timeout.
    if (!more || this.pendingLines.length < MAX_REPLY_LINES) this.pendingLines.push(m ? line : `${first?.slice(0, 3)}-${line}`.slice(0, MAX_LINE));
    if (more) return;
    const lines = this.pendingLines;
    this.pendingLines = [];
    const reply: RawReply = { ...parseReplyLines(lines), lines };
    if (this.waiter) return this.waiter.resolve(reply);
    this.replies.push(reply);
    this.queuedChars += charsOf(reply);
    if (this.replies.length > MAX_QUEUED_REPLIES || this.queuedChars > MAX_QUEUED_CHARS) this.protocolError('more replies waiting unread than we could have asked for (a reply flood)');
  }

  private shiftReply(): RawReply | undefined {
    const r = this.replies.shift();
    if (r) this.queuedChars -= charsOf(r);
    return r;
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
