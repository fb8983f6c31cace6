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
 * Reads what follows a pipelined group's last RCPT answer, before the answers are handed over (RFC
 * 2920 section 3.1: one reply per command, in order; RFC 5321 4.1.1.10: QUIT's is 221). The reply in
 * QUIT's place is waited for up to `quitMs`; when it is not 221 (a server that answers QUIT "250 Bye",
 * or the real answer of the last recipient, shifted), one more is waited for up to `quitMs` or the
 * close. Throws out of step when the count is off or cannot be told: the server closed with QUIT
 * unanswered while the last RCPT answer could be QUIT's own (one reply short), a second reply follows
 * the one in QUIT's place (one too many: answers shifted onto the wrong recipients, however late it
 * comes), or nothing came in QUIT's place at all (a late reply there could be one too many, and no
 * answer is believed on a count that was never checked). Resolves once the count adds up.
 * `oneAtATime`: the commands were written one at a time, each after the reply before it: QUIT's own
 * reply missing, or a close, says nothing against the answers; a reply too many still does (a second
 * reply to some command, come after the next was written, shifted every answer behind it).
 */
export async function checkReplyCount(conn: SmtpConnection, quitMs: number, lastRcptReply: RawReply | null, signal: AbortSignal | undefined, oneAtATime = false): Promise<void> {
  const next = async (): Promise<RawReply | 'closed' | 'none'> => {
    try {
      return await conn.read(quitMs, signal);
    } catch (err) {
      if (err instanceof SmtpError && err.kind === 'closed') return 'closed';
      if (err instanceof SmtpError && err.kind === 'timeout') return 'none';
      throw err; // aborted: the check has gone
    }
  };
  const quit = await next();
  if (quit === 'none' && oneAtATime) return;
  if (quit === 'none') throw new SmtpError('out_of_step', `out of step: no reply in QUIT's place within ${quitMs} ms after the last RCPT answer, so the replies could not be counted`);
  if (quit === 'closed') {
    if (!oneAtATime && couldBeQuits(lastRcptReply)) throw new SmtpError('out_of_step', `out of step: the server closed with QUIT unanswered, and the last RCPT answer (${lastRcptReply?.code ?? ''}) may be QUIT's`);
    return;
  }
  if (quit.code === 221) return;
  const extra = await next();
  if (extra !== 'none' && extra !== 'closed') throw new SmtpError('out_of_step', `out of step: more replies than the pipelined group had commands (${quit.code}, then ${extra.code}, after the last RCPT answer)`);
  // QUIT answered oddly ("250 Bye"), and nothing after it.
}
