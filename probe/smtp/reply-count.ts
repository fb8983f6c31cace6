// Pipelined replies counted against their commands (RFC 2920 section 3.1: one reply per command, in
// order). A pipelined group's RCPT answers are kept only when the replies around them add up: the
// checks here find a reply short (a server that dropped RCPTs and said "250 Bye" to QUIT) or one too
// many (answers shifted onto the wrong recipients), as session.ts reads a group.
import { SmtpError, type RawReply, type SmtpConnection } from './connection';

/** 2xx other than 221: what a server that answers QUIT oddly ("250 Bye") says to it, as to a recipient it accepts. */
const couldBeQuits = (r: RawReply | null): boolean => r !== null && r.code >= 200 && r.code < 300 && r.code !== 221;

/**
 * The server hung up while RCPT answers of a pipelined group were still due. RFC 2920 section 3.1: one
 * reply per command, in order; the last RCPT answer read may then be the reply to QUIT (a server that
 * dropped RCPTs silently and said "250 Bye" to QUIT): with fewer replies than commands, none is known
 * to be its command's, and the group is out of step. Otherwise the hang-up stands as it is.
 */
export function shortGroup(err: unknown, lastRcptReply: RawReply | null): unknown {
  if (!(err instanceof SmtpError) || err.kind !== 'closed' || !couldBeQuits(lastRcptReply)) return err;
  return new SmtpError('out_of_step', `out of step: the server closed before answering every pipelined command, and the last reply read (${lastRcptReply?.code ?? ''}) may be QUIT's`);
}

/**
 * Reads what follows a pipelined group's last RCPT answer for up to `graceMs`, before the answers are
 * handed over (RFC 2920 section 3.1: one reply per command, in order; RFC 5321 4.1.1.10: QUIT's is
 * 221). Throws out of step when the count is off: the server closed with QUIT unanswered while the
 * last RCPT answer could be QUIT's own (one reply short), or a second reply follows the one in QUIT's
 * place (one too many: answers shifted onto the wrong recipients). Resolves true when QUIT's reply
 * came (the connection can be closed), false when nothing came in time.
 */
export async function checkReplyCount(conn: SmtpConnection, graceMs: number, lastRcptReply: RawReply | null, signal: AbortSignal | undefined): Promise<boolean> {
  const next = async (): Promise<RawReply | 'closed' | 'none'> => {
    try {
      return await conn.read(graceMs, signal);
    } catch (err) {
      if (err instanceof SmtpError && err.kind === 'closed') return 'closed';
      // Nothing in time, or the check is gone (the answers are handed over as they are).
      if (err instanceof SmtpError && (err.kind === 'timeout' || err.kind === 'aborted')) return 'none';
      throw err;
    }
  };
  const quit = await next();
  if (quit === 'none') return false;
  if (quit === 'closed') {
    if (couldBeQuits(lastRcptReply)) throw new SmtpError('out_of_step', `out of step: the server closed with QUIT unanswered, and the last RCPT answer (${lastRcptReply?.code ?? ''}) may be QUIT's`);
    return true;
  }
  if (quit.code === 221) return true;
  const extra = await next();
  if (extra !== 'none' && extra !== 'closed') throw new SmtpError('out_of_step', `out of step: more replies than the pipelined group had commands (${quit.code}, then ${extra.code}, after the last RCPT answer)`);
  return true; // QUIT answered oddly ("250 Bye"), nothing after it
}

/**
 * In the background, once a pipelined group's answers have been handed over (never on their path):
 * reads the reply in QUIT's place, then closes. A 221, or none in time (nothing to tell), is fine.
 * Any other reply may be QUIT's (a few servers answer it 250) or come before it: when another reply
 * follows before the close, the connection ends as out of step. The answers already handed over
 * stand (there is no one left to tell). Never throws.
 */
export async function checkQuitReply(conn: SmtpConnection, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  const next = async (): Promise<RawReply | null> => {
    try {
      return await conn.read(timeoutMs, signal);
    } catch {
      return null; // closed, silent, or the check has gone
    }
  };
  const quit = await next();
  if (quit !== null && quit.code !== 221) {
    const extra = await next();
    if (extra !== null) return conn.outOfStep(`${extra.code} after the reply in QUIT's place (${quit.code})`);
  }
  if (signal?.aborted) return conn.destroy();
  return conn.close(timeoutMs, signal);
}
