import { describe, expect, it } from 'vitest';
import { classifyReply, parseReplyLines, REPLY_TABLE, type ReplyClass } from './reply-codes';

const reply = (line: string) => parseReplyLines([line]);

// Real replies seen from real servers, and what they must mean.
const cases: [string, ReplyClass][] = [
  ['250 2.1.5 Ok', 'accepted'],
  ['250 Accepted', 'accepted'],
  ['251 User not local; will forward', 'accepted'],
  ['550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in virtual mailbox table', 'mailbox_not_found'],
  ["550-5.1.1 The email account that you tried to reach does not exist.", 'mailbox_not_found'],
  ['550 5.1.0 Address rejected', 'mailbox_not_found'],
  ['553 5.1.3 Bad recipient address syntax', 'mailbox_not_found'],
  ['550 5.5.0 Requested action not taken: mailbox unavailable', 'mailbox_not_found'],
  ['550 No such user here', 'mailbox_not_found'],
  ['550 Requested action not taken', 'mailbox_not_found'],
  ['550 5.2.1 The email account that you tried to reach is disabled', 'mailbox_disabled'],
  ['550 Account has been disabled', 'mailbox_disabled'],
  ['552 5.2.2 The email account that you tried to reach is over quota', 'mailbox_full'],
  ['452 4.2.2 Mailbox full', 'mailbox_full'],
  ['452 Insufficient system storage', 'temporary'], // RFC 5321's text for 452: the server's disk, not the mailbox
  ['552 Requested mail action aborted: exceeded storage allocation', 'mailbox_full'],
  ['550 5.7.1 Service unavailable; client [203.0.113.9] blocked using zen.spamhaus.org', 'policy_block'],
  ['550 5.1.1 Blocked by Spamhaus: your IP is listed', 'policy_block'],
  ['550 5.7.1 Recipient address rejected: Access denied', 'policy_block'],
  // Other 5.4.x (routing) stays about the route, not the mailbox.
  ['550 5.4.1 Relay Access Denied', 'policy_block'],
  ['554 5.4.6 Hop count exceeded - possible mail loop', 'policy_block'],
  ['554 5.7.1 <a@b.example>: Relay access denied', 'policy_block'],
  // Postfix's reject_unverified_recipient when its probe of the back end got no answer ("unverified";
  // a bounce there reads "undeliverable address"), given a 5xx code by the admin: nothing is known.
  ['550 5.1.1 <a@b.example>: Recipient address rejected: unverified address: connect to backend.b.example[10.0.0.5]:25: Connection timed out', 'policy_block'],
  ['550 5.1.1 <a@b.example>: Recipient address rejected: undeliverable address: host backend.b.example[10.0.0.5] said: 550 5.1.1 User unknown', 'mailbox_not_found'],
  ['554 Relay access denied', 'policy_block'],
  ['550 Your IP has a poor reputation', 'policy_block'],
  ['553 5.1.8 <verify@probe.example>: Sender address rejected: Domain not found', 'policy_block'],
  // Our sender refused at RCPT time: never the recipient's fault (Postfix, Exim's sender callout, qmail's relay refusal).
  ['550 5.1.0 <verify@probe.example>: Sender address rejected: User unknown in local recipient table', 'policy_block'],
  ['553 5.1.7 <verify@probe.example>: Sender address rejected: not owned by user', 'policy_block'],
  ["553 sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)", 'policy_block'],
  ['550 sorry, no mailbox here by that name. (#5.1.1)', 'mailbox_not_found'],
  ['554 5.3.0 Transaction failed', 'policy_block'],
  ['501 5.5.4 Syntax error in parameters', 'policy_block'],
  ['530 5.7.0 Must issue a STARTTLS command first', 'policy_block'],
  ['554 Transaction failed', 'policy_block'],
  ['452 4.5.3 Error: too many recipients', 'too_many_recipients'],
  ['452 Too many recipients received this hour', 'too_many_recipients'],
  // RFC 5321 4.5.3.1.10: RFC 821's 552 for the recipient limit is taken as 452 (some servers send 550).
  ['552 Too many recipients', 'too_many_recipients'],
  ['550 Too many recipients', 'too_many_recipients'],
  ['552 4.5.3 Too many recipients', 'too_many_recipients'],
  ['421 4.7.0 Too many connections from your IP, closing', 'service_closing'],
  ['450 4.7.1 <a@b.example>: Recipient address rejected: Greylisted, try again in 60s', 'temporary'],
  ['451 4.7.1 Please try again later', 'temporary'],
  ['451 Temporary local problem', 'temporary'],
  ['450 4.2.0 Mailbox temporarily unavailable', 'temporary'],
  ['452 4.3.1 Insufficient resources', 'temporary'],
];

describe('SMTP reply classification', () => {
  it.each(cases)('%s → %s', (line, cls) => {
    expect(classifyReply(reply(line))).toBe(cls);
  });

  it.each(REPLY_TABLE.map((row) => [row.example, row.cls] as const))('table row example %s → %s', (example, cls) => {
    expect(classifyReply(reply(example))).toBe(cls);
  });

  it('never reads a policy or reputation refusal as a missing mailbox', () => {
    for (const [line, cls] of cases) {
      if (/spamhaus|reputation|relay|access denied|5\.7\.|sender/i.test(line)) expect(cls).toBe('policy_block');
    }
  });
});

// The one "Access denied" that is about the mailbox: Microsoft 365 directory-based edge blocking
// (DBEB) refuses recipients the tenant does not know with exactly this 5.4.1 reply. Conclusive.
describe('Microsoft 365 (DBEB) unknown recipients', () => {
  it('reads 550 5.4.1 Recipient address rejected: Access denied as a missing mailbox', () => {
    expect(classifyReply(reply('550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [AM4PEPF00027A5F.eurprd04.prod.outlook.com]'))).toBe('mailbox_not_found');
    expect(classifyReply(reply('550 5.4.1 Recipient address rejected: Access denied'))).toBe('mailbox_not_found');
  });

  it('keeps a 5.7.1 "Access denied" and a temporary 4.4.x a policy or temporary answer', () => {
    expect(classifyReply(reply('550 5.7.1 Recipient address rejected: Access denied'))).toBe('policy_block');
    expect(classifyReply(reply('450 4.4.1 Recipient address rejected: Access denied'))).toBe('temporary');
  });
});

describe('a refusal of our sender at RCPT time', () => {
  it("reads Exim's failed sender callout (multi-line, \"Unrouteable address\") as a policy refusal", () => {
    const r = parseReplyLines(['550-Verification failed for <verify@probe.example>', '550-Unrouteable address', '550 Sender verify failed']);
    expect(classifyReply(r)).toBe('policy_block');
  });

  it('still reads a recipient the server does not know as a missing mailbox', () => {
    expect(classifyReply(parseReplyLines(['550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in local recipient table']))).toBe('mailbox_not_found');
    expect(classifyReply(parseReplyLines(['550 Unrouteable address']))).toBe('mailbox_not_found');
  });
});

describe('reply parsing', () => {
  it("takes qmail's enhanced code from the end of its text", () => {
    expect(parseReplyLines(["553 sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)"])).toMatchObject({ code: 553, enhanced: '5.7.1' });
    expect(parseReplyLines(['550 odd (#4.1.1)'])).toMatchObject({ enhanced: null }); // class differs from the code
  });

  it('reads multi-line replies with enhanced codes', () => {
    const r = parseReplyLines(['550-5.1.1 The email account that you tried to reach does', '550-5.1.1 not exist. Please try', '550 5.1.1 double-checking the recipient.']);
    expect(r).toEqual({ code: 550, enhanced: '5.1.1', text: 'The email account that you tried to reach does not exist. Please try double-checking the recipient.' });
  });

  it('ignores an "enhanced code" whose class differs from the reply code', () => {
    expect(parseReplyLines(['550 4.1.1 odd'])).toMatchObject({ code: 550, enhanced: null });
  });

  it('handles a bare code', () => {
    expect(parseReplyLines(['250'])).toEqual({ code: 250, enhanced: null, text: '' });
  });
});
