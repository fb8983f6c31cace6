// One SMTP session against one MX address: banner → EHLO (HELO fallback) → STARTTLS when offered →
// MAIL FROM → RCPT TO for each recipient (all in one write when the server offers PIPELINING) →
// QUIT. The caller gets the replies once the last RCPT is answered (pipelined: and the reply in QUIT's
// place shows the replies add up, reply-count.ts); the close happens afterwards, and `onClosed` fires only once the socket is gone (politeness slots are held
// till then). A server out of step before the RCPT answers are read (a reply waiting when a command
// is written, a 2xx other than 250 to EHLO/HELO/MAIL) ends the session with no RCPT answer kept: its
// answers cannot be told apart. A waiting 421 is the server closing, never out of step.
import type { SmtpReply } from '../contract';
import { classifyReply, parseReplyLines } from './reply-codes';
import { SmtpConnection, SmtpError, type RawReply } from './connection';
import { checkReplyCount, shortGroup } from './reply-count';

const CLOSE_GRACE_MS = 10;
/** An address with a non-ASCII character (a UTF-8 local part: domains are sent as A-labels). */
const NON_ASCII = /[^\u0000-\u007f]/;

export interface SessionParams {
  ip: string;
  port: number;
  /** MX host name, used as TLS server name. */
  host: string;
  heloName: string;
  mailFrom: string;
  /** Bind the connection to this local address (the node's PROBE_SOURCE_IP); default: the kernel's choice. */
  localAddress?: string;
  rcpts: string[];
  /** Try STARTTLS when offered. */
  startTls: boolean;
  /**
   * With startTls: send STARTTLS even when EHLO did not offer it (the server answered MAIL in plain
   * text "530 5.7.0 Must issue a STARTTLS command first", RFC 3207 section 4, without listing it).
   */
  forceStartTls?: boolean;
  /**
   * false: one command at a time even when PIPELINING is offered (the server was found answering a
   * pipelined group out of step). Default: pipeline when offered.
   */
  pipelining?: boolean;
  connectTimeoutMs: number;
  bannerTimeoutMs: number;
  replyTimeoutMs: number;
  signal?: AbortSignal;
  /**
   * Ends this session early without aborting the whole check (another MX answered first): a
   * greeted server gets QUIT, one that has not greeted yet is disconnected. Outcome 'aborted'.
   */
  cancel?: AbortSignal;
  /** Called when the server's 220 greeting arrives. */
  onGreeted?: () => void;
  /** Called when the server's first bytes arrive (a greeting has begun, however slowly it ends). */
  onHeard?: () => void;
  /** Called when the TCP connection is made (a server is there, however slowly it greets). */
  onConnected?: () => void;
  onRcptsSent?: (n: number) => void;
  onClosed?: () => void;
  /**
   * The fleet RCPT budget: called right before RCPTs are written, with how many are about to go;
   * waits for room for at least one and resolves with how many may go now. Recipients beyond that
   * are not sent in this session (`sent` says how many were). Unset: all go.
   */
  takeRcpts?: (wanted: number, signal?: AbortSignal) => Promise<number>;
}

/**
 * ok: the session reached RCPT (replies may be partial: null = not answered).
 * unreachable: no connection, no banner, or the server went silent before RCPT.
 * busy: 421 before RCPT. temp_fail: another 4xx before RCPT. refused: 5xx before RCPT.
 * tls_failed: the TLS handshake failed (retry without STARTTLS).
 */
export type SessionOutcome = 'ok' | 'unreachable' | 'busy' | 'temp_fail' | 'refused' | 'tls_failed' | 'aborted';

export interface SessionResult {
  outcome: SessionOutcome;
  /** Replies before RCPT (banner, ehlo/helo, starttls, mail). */
  transcript: SmtpReply[];
  /** The reply that ended the session early (busy / temp_fail / refused), if any. */
  decisive: SmtpReply | null;
  /** One entry per recipient, in order; null when it was not answered. */
  rcptReplies: (SmtpReply | null)[];
  pipelining: boolean;
  tls: boolean;
  detail: string | null;
  /**
   * Trailing recipients held back because the fleet RCPT budget had room for fewer (pipelining):
   * never sent in this session, so they are asked again in another, at no cost to them.
   */
  heldBack: number;
  /**
   * The recipient (index) whose reply did not come, within the reply timeout or before the server
   * hung up, if that ended the session: the recipients after it were not answered because replies
   * come in order (or the server never read them), not because the server ignored them.
   */
  stalledAt: number | null;
  /**
   * Per recipient: not sent because its address needs SMTPUTF8 (a UTF-8 local part) and the server
   * did not offer it (RFC 6531 3.4: such an address must not be sent there). Its reply stays null.
   */
  needsSmtpUtf8: boolean[];
  /** The session ended because the server's replies did not match our commands ('out_of_step'). */
  outOfStep: boolean;
  /** `stalledAt`'s reply never came because the server hung up (not a reply timeout). */
  hungUp: boolean;
  /** The server accepted the connection, then closed or reset it before greeting (not silent: it said so). */
  droppedBeforeGreeting: boolean;
}

export function toSmtpReply(stage: string, r: RawReply): SmtpReply {
  return { stage, code: r.code, enhanced: r.enhanced, text: r.text };
}

/** EHLO keywords, upper-cased (first line is the greeting). */
export function ehloKeywords(r: RawReply): Set<string> {
  return new Set(r.lines.slice(1).map((l) => (l.slice(4).split(/\s+/)[0] ?? '').toUpperCase()));
}

class EarlyEnd extends Error {
  constructor(
    readonly outcome: SessionOutcome,
    readonly reply: SmtpReply | null,
    detail: string,
  ) {
    super(detail);
  }
}

/** Maps a non-success reply before RCPT to the session outcome. */
function earlyOutcome(r: { code: number }): SessionOutcome {
  if (r.code === 421) return 'busy';
  if (r.code >= 400 && r.code < 500) return 'temp_fail';
  return 'refused';
}

export async function runSession(p: SessionParams): Promise<SessionResult> {
  // Every wait listens to the check's abort and to this session's own cancel, through one signal
  // joined by hand: with AbortSignal.any, each of the session's waits (one per reply) paid, on
  // removing its listener, a walk over every signal ever derived from the check's long-lived one.
  const outer = p.signal;
  const joined = joinSignals(outer, p.cancel);
  try {
    return await converse({ ...p, signal: joined.signal }, outer);
  } finally {
    joined.dispose();
  }
}

/** One signal that aborts when either does; dispose() removes its listeners. */
function joinSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): { signal: AbortSignal | undefined; dispose(): void } {
  if (!a || !b) return { signal: a ?? b, dispose: () => undefined };
  const both = new AbortController();
  const onAbort = (): void => both.abort();
  if (a.aborted || b.aborted) both.abort();
  else {
    a.addEventListener('abort', onAbort, { once: true });
    b.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: both.signal,
    dispose: () => {
      a.removeEventListener('abort', onAbort);
      b.removeEventListener('abort', onAbort);
    },
  };
}

async function converse(p: SessionParams, outer: AbortSignal | undefined): Promise<SessionResult> {
  const transcript: SmtpReply[] = [];
  const rcptReplies: (SmtpReply | null)[] = p.rcpts.map(() => null);
  let heldBack = 0;
  /** Recipients not sent: the server lacks SMTPUTF8 and their address needs it (known after EHLO). */
  const needsSmtpUtf8: boolean[] = p.rcpts.map(() => false);
  /** The recipient whose reply is being waited for (-1: none). */
  let awaiting = -1;
  let stalledAt: number | null = null;
  let outOfStep = false;
  let hungUp = false;
  let droppedBeforeGreeting = false;
  const result = (outcome: SessionOutcome, decisive: SmtpReply | null, detail: string | null, pipelining = false, tls = false): SessionResult => ({
    outcome,
    transcript,
    decisive,
    rcptReplies,
    pipelining,
    tls,
    detail,
    heldBack,
    stalledAt,
    needsSmtpUtf8,
    outOfStep,
    hungUp,
    droppedBeforeGreeting,
  });
  /** Room in the fleet budget for up to `wanted` RCPTs (waits for one); an abort ends the session like any other wait. */
  const budget = async (wanted: number): Promise<number> => {
    if (!p.takeRcpts) return wanted;
    try {
      return Math.max(1, Math.min(wanted, await p.takeRcpts(wanted, p.signal)));
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw new SmtpError('aborted', 'aborted while waiting for the fleet RCPT budget');
      throw err;
    }
  };

  let conn: SmtpConnection;
  try {
    conn = await SmtpConnection.connect(p.ip, p.port, p.connectTimeoutMs, p.signal, p.localAddress);
  } catch (err) {
    p.onClosed?.();
    const e = err as SmtpError;
    return result(e.kind === 'aborted' ? 'aborted' : 'unreachable', null, e.message);
  }
  // The server notices our close a moment after we do: keep the slot a little longer so that
  // its own count of our connections never exceeds the cap.
  void conn.closed.then(() => setTimeout(() => p.onClosed?.(), CLOSE_GRACE_MS));
  p.onConnected?.();
  if (p.onHeard) conn.whenHeard(p.onHeard);
  const expect = async (stage: string, timeoutMs: number, code: number, notOurs?: (r: RawReply) => boolean): Promise<RawReply> => {
    const r = await conn.read(timeoutMs, p.signal);
    const reply = toSmtpReply(stage, r);
    transcript.push(reply);
    if (notOurs?.(r)) throw new SmtpError('out_of_step', `out of step: the reply read for ${stage} answers a recipient (${r.code} ${r.text.slice(0, 80)})`);
    if (r.code !== code) throw unexpected(reply);
    return r;
  };

  let pipelining = false;
  let greeted = false;
  let quitSent = false;
  try {
    await expect('banner', p.bannerTimeoutMs, 220);
    // A greeting written as several complete 220 replies came before we said anything: all greeting.
    conn.takeQueued(220);
    greeted = true;
    p.onGreeted?.();
    let keywords = await greet(conn, p, transcript);
    if (p.startTls && (keywords.has('STARTTLS') || p.forceStartTls === true)) {
      conn.write(['STARTTLS']);
      const r = await conn.read(p.replyTimeoutMs, p.signal);
      transcript.push(toSmtpReply('starttls', r));
      if (r.code === 220) {
        await conn.upgradeTls(p.host, p.replyTimeoutMs);
        keywords = await greet(conn, p, transcript).catch((err: unknown) => {
          // TLS that breaks right after the handshake: out of step (a second greeting inside TLS), or
          // the server hangs up or goes silent before its first reply inside TLS. Plain text next time,
          // as after a failed handshake (a broken TLS stack says nothing about the server's mailboxes).
          const broken = err instanceof SmtpError && (err.kind === 'out_of_step' || err.kind === 'closed' || err.kind === 'timeout');
          throw broken ? new SmtpError('tls', err.message) : err;
        });
      }
    }
    pipelining = keywords.has('PIPELINING') && p.pipelining !== false;
    // RFC 6531: an address with a UTF-8 local part goes only to a server that offers SMTPUTF8, with
    // the SMTPUTF8 parameter on MAIL; elsewhere it is not sent at all (its refusal there, often
    // "501 5.1.3 bad address syntax", would say nothing about the mailbox).
    const smtpUtf8 = keywords.has('SMTPUTF8');
    p.rcpts.forEach((r, i) => (needsSmtpUtf8[i] = !smtpUtf8 && NON_ASCII.test(r)));
    /** The recipients (indices) that go in this session, in order. */
    const sendable = p.rcpts.flatMap((_, i) => (needsSmtpUtf8[i] ? [] : [i]));
    if (sendable.length === 0) {
      void conn.quit(Math.min(p.replyTimeoutMs, 2000), outer);
      return result('ok', null, null, pipelining, conn.isTls);
    }
    const utf8 = smtpUtf8 && p.rcpts.some((r) => NON_ASCII.test(r));
    const mail = `MAIL FROM:<${p.mailFrom}>${utf8 ? ' SMTPUTF8' : ''}`;
    const rcptLine = (i: number): string => `RCPT TO:<${p.rcpts[i] ?? ''}>`;

    if (pipelining) {
      // RFC 2920: MAIL, every RCPT and QUIT in one write; the replies come back in order, one per command.
      const n = await budget(sendable.length);
      const sent = sendable.slice(0, n);
      conn.write([mail, ...sent.map(rcptLine), 'QUIT']);
      const groupSentAt = Date.now();
      // Held back: every recipient from the first one the budget had no room for (none are sent after it).
      heldBack = n < sendable.length ? p.rcpts.length - (sendable[n] ?? p.rcpts.length) : 0;
      quitSent = true;
      p.onRcptsSent?.(n);
      // A server that answers the group's RCPTs before MAIL (its sender check finishing late) shifts
      // every answer onto the command before: a recipient's reply (2.1.5 "destination address valid",
      // or one naming one of our recipients) read for MAIL, or a recipient's reply naming another of
      // them, means no answer of the session can be trusted to be its recipient's.
      const named = sent.map((i) => `<${(p.rcpts[i] ?? '').toLowerCase()}>`);
      const names = (r: RawReply, own: string | null): boolean => {
        if (!r.text.includes('<')) return false;
        const text = r.text.toLowerCase();
        return named.some((a) => a !== own && text.includes(a));
      };
      await expect('mail', p.replyTimeoutMs, 250, (r) => r.enhanced === '2.1.5' || names(r, null));
      /** QUIT's reply was read (or waited for). */
      let quitRead = false;
      /** The last RCPT answer read: QUIT's reply is read in its place when the server skipped RCPTs. */
      let lastRcptReply: RawReply | null = null;
      for (const i of sent) {
        awaiting = i;
        const r = await conn.read(p.replyTimeoutMs, p.signal).catch((err: unknown) => {
          throw shortGroup(err, lastRcptReply);
        });
        lastRcptReply = r;
        // 221 is the answer to our QUIT: the server skipped the remaining RCPTs. Never read it as theirs.
        if (r.code === 221) {
          quitRead = true;
          break;
        }
        if (names(r, `<${(p.rcpts[i] ?? '').toLowerCase()}>`)) {
          throw new SmtpError('out_of_step', `out of step: the reply read for RCPT ${p.rcpts[i] ?? ''} names another recipient (${r.code} ${r.text.slice(0, 80)})`);
        }
        rcptReplies[i] = toSmtpReply('rcpt', r);
        if (r.code === 421) break; // the server is closing the connection
      }
      awaiting = -1;
      const everyRcptAnswered = sent.every((i) => rcptReplies[i] !== null);
      // One reply per command: when every RCPT has its reply and, besides the one in QUIT's place,
      // another has already come, some RCPT was answered twice and the answers read are shifted:
      // none of them is kept. (After a 421 the server is closing: what follows it is no answer.)
      if (!quitRead && everyRcptAnswered && !rcptReplies.some((r) => r?.code === 421) && conn.waiting >= 2) {
        throw new SmtpError('out_of_step', 'out of step: more replies than the pipelined group had commands');
      }
      const quitMs = Math.min(p.replyTimeoutMs, 2000);
      if (!quitRead && everyRcptAnswered && !rcptReplies.some((r) => r?.code === 421)) {
        // Every RCPT answered: the next reply should be QUIT's 221, most often here already. The
        // answers are handed over only once the replies add up (a reply short, one too many however
        // late, or none in QUIT's place: thrown, out of step, and asked again one command at a time).
        // QUIT's wait is as long as the server took to answer the group, at least QUIT's own.
        const countMs = Math.min(p.replyTimeoutMs, Math.max(quitMs, Date.now() - groupSentAt));
        await checkReplyCount(conn, countMs, lastRcptReply, p.signal);
        void conn.close(quitMs, outer);
      } else void (quitRead ? conn.close(quitMs, outer) : conn.finish(quitMs, outer));
      return result('ok', null, null, pipelining, conn.isTls);
    } else {
      conn.write([mail]);
      await expect('mail', p.replyTimeoutMs, 250);
      conn.takeQueued(250); // MAIL's reply written as several complete ones (see oneReply)
      for (const i of sendable) {
        await budget(1);
        conn.write([rcptLine(i)]);
        p.onRcptsSent?.(1);
        awaiting = i;
        const r = oneReply(conn, await conn.read(p.replyTimeoutMs, p.signal));
        rcptReplies[i] = toSmtpReply('rcpt', r);
        const cls = classifyReply(r);
        if (cls === 'too_many_recipients' || cls === 'service_closing') break;
      }
      awaiting = -1;
    }
    // QUIT, and its reply read before the answers are handed over: every RCPT answer was read with no
    // reply waiting before its command, but a reply too many that came after a command was written
    // (a second reply to MAIL or a RCPT) was read as that command's, and shifted every answer after it
    // onto the next recipient; the last one's real answer then comes in QUIT's place, with QUIT's
    // after it. (A 421 waiting is the server closing: read in QUIT's place, as write() leaves it.)
    const quitMs = Math.min(p.replyTimeoutMs, 2000);
    conn.write(['QUIT']);
    quitSent = true;
    await checkReplyCount(conn, quitMs, null, p.signal, true);
    void conn.close(quitMs, outer);
    return result('ok', null, null, pipelining, conn.isTls);
  } catch (err) {
    const tls = conn.isTls;
    if (err instanceof EarlyEnd) {
      void conn.quit(Math.min(p.replyTimeoutMs, 1000), outer);
      return result(err.outcome, err.reply, err.message, pipelining, tls);
    }
    const e = err as SmtpError;
    // The reply awaited never came (no reply in time, or the server hung up instead: an anti-harvesting
    // drop at an unknown recipient): that recipient is the one to blame, not those the server never read.
    if ((e.kind === 'timeout' || e.kind === 'closed') && awaiting >= 0) {
      stalledAt = awaiting;
      hungUp = e.kind === 'closed';
    }
    // Out of step: no reply read in this session is known to answer the command it was read for.
    if (e.kind === 'out_of_step') {
      rcptReplies.fill(null);
      outOfStep = true;
    }
    droppedBeforeGreeting = !greeted && e.kind === 'closed';
    // Cancelled (another MX won the race) after the greeting: say goodbye politely.
    if (e.kind === 'aborted' && greeted && !quitSent && p.cancel?.aborted && !outer?.aborted) void conn.quit(Math.min(p.replyTimeoutMs, 1000));
    else conn.destroy();
    if (e.kind === 'aborted') return result('aborted', null, 'aborted', pipelining, tls);
    if (e.kind === 'tls') return result('tls_failed', null, e.message, pipelining, tls);
    const answered = rcptReplies.some((r) => r !== null);
    const stage = transcript.length === 0 ? 'banner' : (transcript[transcript.length - 1]?.stage ?? '');
    const what = e.kind === 'timeout' ? 'timeout' : e.kind === 'out_of_step' ? 'server out of step' : 'connection lost';
    const detail = `${what} after ${stage}${answered ? ' during RCPT' : ''}: ${e.message}`;
    // Replies already read stand; a session that got as far as RCPT counts as 'ok' with gaps.
    const reachedRcpt = transcript.some((t) => t.stage === 'mail' && t.code >= 200 && t.code < 300);
    return result(reachedRcpt ? 'ok' : 'unreachable', null, detail, pipelining, tls);
  }
}

/**
 * What ends the session when `stage` did not get the reply it needs: any other 2xx is a reply to
 * something else (a second greeting, a goodbye), so the server is out of step; the rest ends it early.
 */
function unexpected(r: SmtpReply): Error {
  if (r.code >= 200 && r.code < 300) return new SmtpError('out_of_step', `out of step: ${r.code} in reply to ${r.stage}`);
  // The reply is the transcript's own entry: the evidence lists it once.
  return new EarlyEnd(earlyOutcome(r), r, `${r.stage}: ${r.code} ${r.text}`);
}

/**
 * A reply written as several complete replies of one code ("550 5.1.1 The email account …", then
 * "550-5.1.1 double-checking …", "550 5.1.1 unnecessary spaces.": a space ending a line inside it),
 * the rest there before our next command: asked one command at a time, nothing else can have come
 * yet, so it is all this command's reply. (Pipelined, the next reply may be the next command's; one
 * that comes after our next command is written is a reply too many, caught as out of step.)
 */
function oneReply(conn: SmtpConnection, r: RawReply): RawReply {
  const more = conn.takeQueued(r.code);
  if (more.length === 0) return r;
  const lines = [...r.lines, ...more.flatMap((m) => m.lines)];
  return { ...parseReplyLines(lines), lines };
}

/** At most this many 220s read in place of EHLO's (or HELO's) reply are taken as more greeting. */
const MAX_EXTRA_GREETINGS = 5;

/** EHLO, falling back to HELO when EHLO is refused. Returns the EHLO keywords (empty after HELO). */
async function greet(conn: SmtpConnection, p: SessionParams, transcript: SmtpReply[]): Promise<Set<string>> {
  let extraGreetings = 0;
  /**
   * The reply to the command just written. A 220 is the rest of a greeting written as several
   * complete replies that reached us only after that command was written (takeQueued took the ones
   * that came before): skipped, a few times at most; then a 220 is out of step.
   */
  const reply = async (): Promise<RawReply> => {
    for (;;) {
      const r = await conn.read(p.replyTimeoutMs, p.signal);
      if (r.code !== 220 || extraGreetings >= MAX_EXTRA_GREETINGS) return r;
      extraGreetings++;
    }
  };
  conn.write([`EHLO ${p.heloName}`]);
  const ehlo = await reply();
  const ehloReply = toSmtpReply('ehlo', ehlo);
  transcript.push(ehloReply);
  if (ehlo.code === 250) {
    // An EHLO reply whose lines mix separators ("250-mx", "250 PIPELINING", "250 SIZE …": a space
    // before its last line) reads as several complete replies. Those already here came before our next
    // command, so they can only be more of this one: their lines are keywords too. (One that comes
    // after our next command is written is a reply too many, caught as out of step.)
    const keywords = ehloKeywords(ehlo);
    for (const more of conn.takeQueued(250)) for (const l of more.lines) keywords.add((l.slice(4).split(/\s+/)[0] ?? '').toUpperCase());
    return keywords;
  }
  // A 2xx is no refusal (never a reason for HELO); 421 says the server is closing.
  if (ehlo.code === 421 || (ehlo.code >= 200 && ehlo.code < 300)) throw unexpected(ehloReply);
  conn.write([`HELO ${p.heloName}`]);
  const helo = await reply().catch((err: unknown) => {
    // Hung up after refusing EHLO ("550 5.7.1 Client host rejected", then the close): that refusal is its answer.
    throw err instanceof SmtpError && err.kind === 'closed' ? unexpected(ehloReply) : err;
  });
  const heloReply = toSmtpReply('helo', helo);
  transcript.push(heloReply);
  if (helo.code !== 250) throw unexpected(heloReply);
  conn.takeQueued(250); // a HELO reply written as several complete replies, as above
  return new Set();
}
