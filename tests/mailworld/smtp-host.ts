// One simulated SMTP server bound to one 127.x.y.z address. Written on raw `net` rather than
// smtp-server because every reply (banner and EHLO included) must be delayable, and the odd
// behaviours (tarpit banner, silence, 421/554 greetings, per-session RCPT limits, per-client
// connection limits, counters) need the whole state machine in hand. Replies keep RFC 5321 order:
// each is written no earlier than replyDelayMs after the command that caused it arrived (a network
// round trip), and never before the reply to an earlier command, so pipelining saves round trips
// exactly as it does on the real internet.
import net from 'node:net';
import tls from 'node:tls';
import type { DomainSpec, HostCounters, MailboxState, ServerSpec, WorldCounters } from './types';
import { mailboxKey } from './truth';

export interface RecipientDomain {
  spec: DomainSpec;
  servedBy: ReadonlySet<string>;
  mailboxes: ReadonlyMap<string, MailboxState>;
}

export interface HostContext {
  replyDelayMs: number;
  counters: WorldCounters;
  secureContext: tls.SecureContext;
  /**
   * A recipient domain the world knows (lower-case name): its spec, the host IPs that serve it (its
   * MX/A addresses) and its mailboxes by lower-case local part (absent: the mailbox does not exist).
   * One lookup per RCPT.
   */
  recipientDomain(domain: string): RecipientDomain | undefined;
  /** (client ip | mail from | rcpt) → first seen (ms). Shared by all hosts, like a greylist DB. */
  greylist: Map<string, number>;
}

/** Greeting text after the host name, per persona (what real servers of that kind say). */
const PERSONA_BANNER: Record<NonNullable<ServerSpec['persona']> | 'none', string> = {
  none: 'ESMTP Mailworld',
  m365: 'Microsoft ESMTP MAIL Service ready at Mon, 23 Nov 2026 09:00:00 +0000 [08DD1A2B3C4D5E6F]',
  proofpoint: 'ESMTP mfa-m0001234.ppops.net',
  mimecast: 'ESMTP mimecast.com - the world\'s most secure email service',
  barracuda: 'ESMTP (Barracuda Email Security Gateway)',
};

function normalizeIp(ip: string | undefined): string {
  if (!ip) return '?';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function extractPath(arg: string): string | null {
  const m = /^\s*:?\s*<([^>]*)>/.exec(arg) ?? /^\s*:?\s*(\S+)/.exec(arg);
  return m ? (m[1] ?? '') : null;
}

interface Pending {
  at: number;
  /** null: nothing is written (a hang-up: only `after` runs). */
  text: string | null;
  after?: () => void;
}

/** prematureRcptAnswers: how late MAIL's reply comes, and the gap between the real RCPT answers after it. */
export const PREMATURE_SENDER_CHECK_MS = 30;
export const PREMATURE_RCPT_CHECK_MS = 10;

/** What rcptReply returns for an unknown recipient at a host that hangs up on them (hangUpAtUnknown). */
const HANG_UP = '';

/** One function for every session's reply timer (no closure per session). */
function onReplyTimer(session: Session): void {
  session.timerFired();
}

/** The EHLO reply of a host, before (`secure` false) or after STARTTLS. */
function ehloReply(name: string, spec: ServerSpec, secure: boolean): string {
  const ext = ['SIZE 35882577', '8BITMIME', 'SMTPUTF8'];
  if (spec.enhancedCodes !== false) ext.splice(2, 0, 'ENHANCEDSTATUSCODES');
  if (spec.pipelining !== false) ext.unshift('PIPELINING');
  if ((spec.starttls || spec.requireTls) && !secure && !spec.hiddenStarttls) ext.push('STARTTLS');
  const lines = [name, ...ext];
  // Mixed separators: a space after the second line's code too (a reply ended early, then more of it).
  return lines.map((l, i) => `250${i === lines.length - 1 || (spec.ehloMixedSeparators && i === 1) ? ' ' : '-'}${l}`).join('\r\n');
}

class Session {
  private socket: net.Socket;
  private buf = '';
  private greeted = false;
  private ehloSeen = false;
  private mailFrom: string | null = null;
  /** A MAIL command was sent in this transaction (even if refused): pipelined RCPTs after it are fine. */
  private mailTried = false;
  private rcpts = 0;
  /** prematureRcptAnswers: until when MAIL's reply is held back, and RCPTs answered early meanwhile. */
  private senderCheckUntil = 0;
  private earlyRcpts = 0;
  private secure = false;
  private upgrading = false;
  private rejected = false;
  private ended = false;
  /** Something was said (the greeting): a close before it means the client gave up waiting. */
  bannerSent = false;
  private bannerQueued = false;
  private lastAt = 0;
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly clientIp: string;
  /** The 'data' listener (kept to move it to the TLS socket). Assigned, not a class field: no per-session naming work. */
  private readonly onData: (chunk: Buffer) => void;

  constructor(
    private readonly host: SmtpHost,
    socket: net.Socket,
  ) {
    this.socket = socket;
    this.clientIp = normalizeIp(socket.remoteAddress);
    this.onData = (chunk) => this.receive(chunk);
  }

  get client(): string {
    return this.clientIp;
  }

  start(): void {
    const spec = this.host.spec;
    const mode = spec.mode ?? 'smtp';
    const now = Date.now();
    this.socket.on('data', this.onData);
    if (mode === 'silent') return;
    if (mode === 'busy') {
      this.reply(now, '421 4.3.2 Service not available, closing transmission channel', () => this.end());
      return;
    }
    if (spec.maxConnectionsPerIp !== undefined && this.host.activeFrom(this.clientIp) > spec.maxConnectionsPerIp) {
      this.reply(now, `421 4.7.0 ${this.host.name} Error: too many connections from ${this.clientIp}`, () =>
        this.end(),
      );
      return;
    }
    if (mode === 'policy-banner') {
      this.rejected = true;
      this.reply(now, `554 5.7.1 ${this.host.name} Service unavailable; Client host [${this.clientIp}] blocked using bl.mailworld.test`);
      return;
    }
    this.reply(now + (spec.bannerDelayMs ?? 0), this.host.banner);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    this.socket.destroy();
  }

  private end(): void {
    this.ended = true;
    this.socket.end();
  }

  /** Queue a reply for receivedAt + replyDelayMs, after every reply queued before it. */
  private reply(receivedAt: number, raw: string, after?: () => void): void {
    const ctx = this.host.ctx;
    // A server without ENHANCEDSTATUSCODES sends bare codes.
    const text = this.host.bareCodes ? raw.replace(/^(\d{3})([ -])[245]\.\d{1,3}\.\d{1,3} /gm, '$1$2') : raw;
    const code = text.slice(0, 3);
    ctx.counters.repliesByCode.set(code, (ctx.counters.repliesByCode.get(code) ?? 0) + 1);
    const slow = this.bannerQueued ? (this.host.spec.slowRepliesMs ?? 0) : 0;
    this.bannerQueued = true;
    const at = Math.max(receivedAt + ctx.replyDelayMs + slow, this.lastAt);
    this.lastAt = at;
    this.queue.push({ at, text, after });
    this.pump();
  }

  /** Hangs up (no reply) once every reply queued before is sent, when a reply would be due. */
  private hangUp(receivedAt: number): void {
    const at = Math.max(receivedAt + this.host.ctx.replyDelayMs, this.lastAt);
    this.lastAt = at;
    this.queue.push({ at, text: null, after: () => this.end() });
    this.pump();
  }

  /**
   * Sends every reply that is due, in one write (replies to pipelined commands that are due
   * together leave together, as from a real server's output buffer); a reply with an `after`
   * (close, TLS upgrade) is flushed before its action runs. Arms one timer for the next reply.
   */
  private pump(): void {
    if (this.timer) return;
    const now = Date.now();
    let out = '';
    let due = 0;
    while (due < this.queue.length) {
      const head = this.queue[due] as Pending;
      const wait = head.at - now;
      if (wait > 0) {
        this.timer = setTimeout(onReplyTimer, wait, this);
        break;
      }
      due++;
      if (head.text !== null) out += `${head.text}\r\n`;
      if (head.after) {
        this.queue.splice(0, due);
        due = 0;
        this.send(out);
        out = '';
        head.after();
      }
    }
    if (due > 0) this.queue.splice(0, due);
    if (out) this.send(out);
  }

  /** The reply timer fired (see onReplyTimer). */
  timerFired(): void {
    this.timer = null;
    this.pump();
  }

  private send(text: string): void {
    if (this.socket.destroyed || !this.socket.writable) return;
    this.socket.write(text);
    this.bannerSent = true;
  }

  private violation(what: string): void {
    const v = this.host.ctx.counters.violations;
    if (v.length < 1000) v.push(`${this.host.ip}: ${what}`);
  }

  private receive(chunk: Buffer): void {
    if (this.upgrading || this.ended) return;
    const buf = this.buf + chunk.toString('utf8');
    const now = Date.now(); // every command in the chunk arrived together
    let start = 0;
    for (;;) {
      const nl = buf.indexOf('\n', start);
      if (nl < 0) break;
      const line = buf.slice(start, nl > start && buf.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
      start = nl + 1;
      const pipelined = this.queue.length > 0 || start < buf.length;
      if (pipelined && this.greeted) this.host.ctx.counters.pipelinedCommands++;
      if (pipelined && this.ehloSeen && this.host.spec.pipelining === false) {
        this.violation(`pipelining without PIPELINING: ${line.slice(0, 40)}`);
      }
      this.command(line, now);
      if (this.upgrading || this.ended) {
        if (this.upgrading && start < buf.length) this.violation('data pipelined after STARTTLS (discarded)');
        this.buf = '';
        return;
      }
    }
    this.buf = start === 0 ? buf : buf.slice(start);
    if (this.buf.length > 4096) {
      this.reply(Date.now(), '500 5.5.2 Line too long', () => this.end());
    }
  }

  private command(line: string, now: number): void {
    const spec = this.host.spec;
    const sp = line.indexOf(' ');
    const verb = (sp < 0 ? line : line.slice(0, sp)).toUpperCase();
    const arg = sp < 0 ? '' : line.slice(sp + 1);
    if (this.rejected) {
      if (verb === 'QUIT') {
        this.host.counters.quits++;
        this.host.released(this);
        this.reply(now, '221 2.0.0 Bye', () => this.end());
      }
      else this.reply(now, '503 5.5.1 Error: no SMTP service here');
      return;
    }
    switch (verb) {
      case 'EHLO': {
        if (spec.ehlo === false) {
          this.reply(now, '502 5.5.2 Error: command not recognized');
          return;
        }
        this.greeted = true;
        this.ehloSeen = true;
        this.mailFrom = null;
        this.reply(now, this.secure ? this.host.ehloSecure : this.host.ehloPlain);
        return;
      }
      case 'HELO':
        this.greeted = true;
        this.mailFrom = null;
        this.reply(now, `250 ${this.host.name}`);
        return;
      case 'STARTTLS': {
        if (!(spec.starttls || spec.requireTls) || this.secure) {
          this.reply(now, '502 5.5.1 Error: command not implemented');
          return;
        }
        if (!this.ehloSeen) {
          this.reply(now, '503 5.5.1 Error: send EHLO first');
          return;
        }
        this.upgrading = true;
        this.reply(now, '220 2.0.0 Ready to start TLS', () => this.upgrade());
        return;
      }
      case 'MAIL': {
        this.mailTried = true;
        if (!this.greeted) return this.reply(now, '503 5.5.1 Error: send HELO/EHLO first');
        if (this.mailFrom !== null) return this.reply(now, '503 5.5.1 Error: nested MAIL command');
        if (spec.requireTls && !this.secure) return this.reply(now, '530 5.7.0 Must issue a STARTTLS command first');
        if (!/^FROM\s*:/i.test(arg)) return this.reply(now, '501 5.5.4 Syntax: MAIL FROM:<address>');
        const from = extractPath(arg.slice(4)); // arg starts with FROM (tested above)
        if (from === null) return this.reply(now, '501 5.1.7 Bad sender address syntax');
        if (spec.rejectMailFrom) return this.reply(now, `550 5.7.1 <${from}>: Sender address rejected: Access denied`);
        this.mailFrom = from;
        if (spec.prematureRcptAnswers) {
          this.senderCheckUntil = now + PREMATURE_SENDER_CHECK_MS;
          this.earlyRcpts = 0;
          return this.reply(this.senderCheckUntil, '250 2.1.0 Ok');
        }
        this.reply(now, '250 2.1.0 Ok');
        return;
      }
      case 'RCPT': {
        this.countRcpt(now);
        if (this.mailFrom === null) {
          if (!this.mailTried) this.violation('RCPT before MAIL');
          return this.reply(now, '503 5.5.1 Error: need MAIL command');
        }
        if (spec.closeAfterRcpts !== undefined && this.rcpts > spec.closeAfterRcpts) {
          return this.reply(now, `421 4.4.2 ${this.host.name} Error: too much activity, closing connection`, () => this.end());
        }
        if (spec.maxRcptsPerSession !== undefined && this.rcpts > spec.maxRcptsPerSession) {
          return this.reply(now, '452 4.5.3 Error: too many recipients');
        }
        if (!/^TO\s*:/i.test(arg)) return this.reply(now, '501 5.5.4 Syntax: RCPT TO:<address>');
        const rcpt = extractPath(arg.slice(2)) ?? ''; // arg starts with TO (tested above)
        if (spec.dropRcpts) return; // silently dropped: no reply at all
        const answer = this.rcptReply(rcpt, now);
        if (answer === HANG_UP) return this.hangUp(now);
        if (spec.prematureRcptAnswers && now < this.senderCheckUntil) {
          // Before MAIL's reply: a bare "250 Ok" at once, ahead of it; the real answer after it.
          this.send('250 Ok\r\n');
          return this.reply(this.senderCheckUntil + ++this.earlyRcpts * PREMATURE_RCPT_CHECK_MS, answer);
        }
        this.reply(now, answer);
        return;
      }
      case 'RSET':
        this.mailFrom = null;
        this.mailTried = false;
        this.reply(now, '250 2.0.0 Ok');
        return;
      case 'NOOP':
        this.reply(now, '250 2.0.0 Ok');
        return;
      case 'VRFY':
        this.reply(now, '252 2.0.0 Cannot VRFY user, but will accept message and attempt delivery');
        return;
      case 'DATA':
        this.violation('DATA sent (a verifier must never send a message)');
        this.reply(now, '554 5.5.1 Error: no valid recipients');
        return;
      case 'QUIT':
        this.host.counters.quits++;
        this.host.released(this);
        this.reply(now, spec.dropRcpts ? '250 2.0.0 Bye' : '221 2.0.0 Bye', () => this.end());
        return;
      default:
        this.violation(`unknown command ${verb.slice(0, 20)}`);
        this.reply(now, '502 5.5.2 Error: command not recognized');
    }
  }

  private countRcpt(now: number): void {
    const c = this.host.ctx.counters;
    const h = this.host.counters;
    h.rcptTimes.push(now);
    this.rcpts++;
    h.rcpts++;
    c.rcpts++;
    if (this.rcpts > h.maxRcptsPerSession) h.maxRcptsPerSession = this.rcpts;
    if (this.rcpts > c.maxRcptsPerSession) c.maxRcptsPerSession = this.rcpts;
  }

  private rcptReply(rcpt: string, now: number): string {
    const ctx = this.host.ctx;
    const at = rcpt.lastIndexOf('@');
    if (at < 1) return `501 5.1.3 <${rcpt}>: Recipient address rejected: need fully-qualified address`;
    const local = mailboxKey(rcpt.slice(0, at));
    const domainName = rcpt.slice(at + 1).toLowerCase();
    const known = ctx.recipientDomain(domainName);
    if (!known || !known.servedBy.has(this.host.ip)) {
      return `554 5.7.1 <${rcpt}>: Relay access denied`;
    }
    const domain = known.spec;
    if (domain.policyRefusal !== undefined) return domain.policyRefusal;
    if (domain.policyBlock) {
      return `550 5.7.1 Service unavailable; Client host [${this.clientIp}] blocked using bl.mailworld.test; see https://mailworld.test/lookup?ip=${this.clientIp}`;
    }
    if (domain.greylistMs !== undefined && domain.greylistMs > 0) {
      const key = `${this.clientIp}|${(this.mailFrom ?? '').toLowerCase()}|${rcpt.toLowerCase()}`;
      const first = ctx.greylist.get(key);
      if (first === undefined) ctx.greylist.set(key, now);
      if (first === undefined || now - first < domain.greylistMs) {
        return `451 4.7.1 <${rcpt}>: Recipient address rejected: Greylisted, please try again later`;
      }
    }
    if (this.host.spec.acceptAll) return '250 2.1.5 Ok';
    const state = known.mailboxes.get(local);
    switch (state) {
      case 'ok':
        return '250 2.1.5 Ok';
      case 'full':
        return `552 5.2.2 <${rcpt}>: Mailbox full, over quota`;
      case 'full-temp':
        return `452 4.2.2 <${rcpt}>: Mailbox full, try again later`;
      case 'disabled':
        return `550 5.2.1 <${rcpt}>: Mailbox disabled, not accepting messages`;
      default:
        if (domain.catchAll) return '250 2.1.5 Ok';
        if (this.host.spec.hangUpAtUnknown && domain.rejectUnknown === undefined) return HANG_UP;
        if (domain.rejectUnknown === 'm365') return `550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [${this.host.name}]`;
        if (domain.rejectUnknown === 'policy') return `550 5.7.1 <${rcpt}>: Recipient rejected by policy`;
        if (this.host.spec.enhancedCodes === false) return '550 No such user here';
        if (this.host.spec.multiline) {
          return [
            '550-5.1.1 The email account that you tried to reach does not exist. Please try',
            "550-5.1.1 double-checking the recipient's email address for typos or",
            '550 5.1.1 unnecessary spaces. https://support.mailworld.test/?p=NoSuchUser',
          ].join('\r\n');
        }
        return `550 5.1.1 <${rcpt}>: Recipient address rejected: User unknown in virtual mailbox table`;
    }
  }

  private upgrade(): void {
    const plain = this.socket;
    plain.off('data', this.onData);
    const secure = new tls.TLSSocket(plain, { isServer: true, secureContext: this.host.ctx.secureContext });
    secure.on('error', () => secure.destroy());
    secure.once('secure', () => {
      this.secure = true;
      this.upgrading = false;
      this.greeted = false;
      this.ehloSeen = false;
      this.mailFrom = null;
      this.host.counters.tlsUpgrades++;
      this.host.ctx.counters.tlsUpgrades++;
    });
    secure.on('data', this.onData);
    this.socket = secure;
  }
}

/** A host's counts from zero (the connections open now are the starting concurrency). */
function zeroHostCounts(open: number): Omit<HostCounters, 'ip' | 'current'> {
  return {
    connections: 0,
    maxConcurrent: open,
    sessions: 0,
    rcpts: 0,
    rcptTimes: [],
    maxRcptsPerSession: 0,
    tlsUpgrades: 0,
    quits: 0,
    closedBeforeBanner: 0,
    byClient: new Map(),
  };
}

export class SmtpHost {
  readonly counters: HostCounters;
  private server: net.Server | null = null;
  private readonly sessions = new Set<Session>();
  private readonly byClient = new Map<string, number>();
  private readonly releasedSessions = new WeakSet<Session>();
  /** The texts that depend only on the host, made once: the greeting, the EHLO replies, whether codes are bare. */
  readonly banner: string;
  readonly ehloPlain: string;
  readonly ehloSecure: string;
  /** No ENHANCEDSTATUSCODES: every reply loses its enhanced code. */
  readonly bareCodes: boolean;

  constructor(
    readonly ip: string,
    readonly name: string,
    readonly spec: ServerSpec,
    readonly ctx: HostContext,
  ) {
    this.counters = { ip, current: 0, ...zeroHostCounts(0) };
    ctx.counters.perIp.set(ip, this.counters);
    this.banner = spec.multiline
      ? `220-${name} ESMTP Mailworld\r\n220-No UCE, no unsolicited bulk mail\r\n220 ${name} ready`
      : `220 ${name} ${PERSONA_BANNER[spec.persona ?? 'none']}`;
    this.ehloPlain = ehloReply(name, spec, false);
    this.ehloSecure = ehloReply(name, spec, true);
    this.bareCodes = spec.enhancedCodes === false;
  }

  activeFrom(clientIp: string): number {
    return this.byClient.get(clientIp) ?? 0;
  }

  resetCounters(): void {
    Object.assign(this.counters, zeroHostCounts(this.counters.current));
    this.ctx.counters.perIp.set(this.ip, this.counters);
  }

  /** Listen on ip:port (a 'refused' host does not listen). Rejects on EADDRINUSE. */
  async listen(port: number): Promise<void> {
    if ((this.spec.mode ?? 'smtp') === 'refused') return;
    const server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: this.ip, exclusive: true, backlog: 1024 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', () => undefined);
    this.server = server;
  }

  private accept(socket: net.Socket): void {
    const c = this.counters;
    const w = this.ctx.counters;
    const session = new Session(this, socket);
    const client = session.client;
    this.sessions.add(session);
    c.connections++;
    c.sessions++;
    w.connections++;
    c.current++;
    if (c.current > c.maxConcurrent) c.maxConcurrent = c.current;
    if (c.maxConcurrent > w.maxConcurrentPerIp) w.maxConcurrentPerIp = c.maxConcurrent;
    const open = (this.byClient.get(client) ?? 0) + 1;
    this.byClient.set(client, open);
    const seen = c.byClient.get(client) ?? { connections: 0, open: 0, maxConcurrent: 0 };
    seen.connections++;
    seen.open++;
    seen.maxConcurrent = Math.max(seen.maxConcurrent, open);
    c.byClient.set(client, seen);
    socket.setNoDelay(true);
    socket.setTimeout(300_000, () => socket.destroy());
    socket.on('error', () => undefined);
    socket.on('end', () => this.released(session));
    socket.on('close', () => {
      if (!session.bannerSent) this.counters.closedBeforeBanner++;
      this.sessions.delete(session);
      session.close();
      this.released(session);
    });
    session.start();
  }

  /**
   * A session stops counting as concurrent at the earliest of QUIT, the client's FIN, or close:
   * a client that has sent QUIT is done with the connection, whatever the kernel does next.
   */
  released(session: Session): void {
    if (this.releasedSessions.has(session)) return;
    this.releasedSessions.add(session);
    this.counters.current--;
    const client = session.client;
    const seen = this.counters.byClient.get(client);
    if (seen && seen.open > 0) seen.open--;
    const n = (this.byClient.get(client) ?? 1) - 1;
    if (n <= 0) this.byClient.delete(client);
    else this.byClient.set(client, n);
  }

  async close(): Promise<void> {
    for (const s of this.sessions) s.close();
    this.sessions.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
