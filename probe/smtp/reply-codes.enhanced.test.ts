// Enhanced status codes (RFC 3463) where servers put them: only on a later line of a multi-line
// reply, or of another class than the reply code. Neither may read as "mailbox does not exist".
import { describe, expect, it } from 'vitest';
import { classifyReply, parseReplyLines } from './reply-codes';

describe('enhanced codes in odd places', () => {
  it('a multi-line policy refusal whose enhanced code (5.7.1) is only on the later lines is not "mailbox does not exist"', () => {
    const r = parseReplyLines(['550-Message rejected', '550 5.7.1 Service unavailable']);
    expect(r.enhanced).toBe('5.7.1');
    expect(classifyReply(r)).toBe('policy_block');
  });

  it('a 550 carrying a 4.x.x (temporary) enhanced code is not read as a bare 550 "mailbox unavailable"', () => {
    // The enhanced code is of the other class, so it is dropped; but the reply clearly carries one:
    // the RFC 5321 bare-550 rule ("no enhanced code") must not turn it into a missing mailbox.
    expect(classifyReply(parseReplyLines(['550 4.7.1 Service temporarily unavailable']))).not.toBe('mailbox_not_found');
  });
});
