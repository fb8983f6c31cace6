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

describe('a reply whose lines carry conflicting enhanced codes (RFC 3463: one code on every line)', () => {
  it.each([
    [['550-5.1.1 Recipient rejected', '550 5.7.1 Unauthenticated senders are not allowed here'], '5.7.1', 'policy_block'],
    [['550-5.7.1 Recipient rejected', '550 5.1.1 see https://help.example/smtp'], '5.7.1', 'policy_block'],
    [['550-5.1.1 Recipient rejected', '550 5.2.2 Mailbox quota exceeded'], '5.2.2', 'mailbox_full'],
    [['550 5.1.1 sorry, you are not allowed here (#5.7.1)'], '5.7.1', 'policy_block'],
    [['550-4.7.1 Try again', '550 5.1.1 User unknown'], null, 'policy_block'],
  ] as const)('%j: the code that is not "no such mailbox" is the reply\'s (%s, %s)', (lines, enhanced, cls) => {
    const r = parseReplyLines([...lines]);
    expect(r.enhanced).toBe(enhanced);
    expect(classifyReply(r)).toBe(cls);
  });

  it('codes that all say "no such mailbox" stay conclusive: 5.1.1 on every line, or 5.1.1 and 5.1.10', () => {
    expect(classifyReply(parseReplyLines(['550-5.1.1 The email account that you tried to reach does not exist.', '550 5.1.1 https://support.google.com/mail/?p=NoSuchUser']))).toBe('mailbox_not_found');
    expect(classifyReply(parseReplyLines(['550-5.1.10 RESOLVER.ADR.RecipientNotFound', '550 5.1.1 Recipient not found']))).toBe('mailbox_not_found');
  });
});
