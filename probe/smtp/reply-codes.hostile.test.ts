// Replies a hostile (or broken) server can send at most: 200 lines of 4096 characters each, as the
// connection lets through. Reading one must not hold the node's event loop: every check of the node
// shares it. Before the fix, the host-name scrub (withoutNames) backtracked over each long run of
// letters, dots or hyphens from every position, and one such reply held a node for tens of minutes.
import { describe, expect, it } from 'vitest';
import { classifyReply, parseReplyLines, refusesUs, temporarilyRefusesUs } from './reply-codes';

const LINES = 200;
const LINE = 4096;
const shapes: Record<string, string> = {
  'one run of letters': 'a'.repeat(LINE),
  'dotted labels with no TLD end': 'a.'.repeat(LINE / 2),
  'hyphens': 'a-'.repeat(LINE / 2),
  'digits and dots': '1.'.repeat(LINE / 2),
  'at signs': 'a@'.repeat(LINE / 2),
  'open angle brackets': '<'.repeat(LINE),
  'colons (URL scheme look-alike)': 'a:'.repeat(LINE / 2),
  'client host, again and again': 'client host '.repeat(LINE / 12),
};

function reply(code: string, body: string): string[] {
  return Array.from({ length: LINES }, (_, i) => `${code}${i === LINES - 1 ? ' ' : '-'}${body}`.slice(0, LINE));
}

describe('a reply of 200 lines of 4096 characters is read at once', () => {
  for (const [name, body] of Object.entries(shapes)) {
    it(`5.7.1 made of ${name}: a policy refusal, not about the mailbox`, { timeout: 20_000 }, () => {
      const r = parseReplyLines(reply('550', `5.7.1 ${body}`));
      expect(classifyReply(r)).toBe('policy_block');
      refusesUs({ stage: 'rcpt', text: r.text });
    });
    it(`a 4xx made of ${name} is read too`, { timeout: 20_000 }, () => {
      const r = parseReplyLines(reply('451', `4.3.0 ${body}`));
      expect(classifyReply(r)).toBe('temporary');
      temporarilyRefusesUs(r);
    });
  }

  it('the words at the head of a long reply still decide: "blocked" with a 5.1.1 is no proof the mailbox is missing', () => {
    const lines = reply('550', `5.1.1 ${'a.'.repeat(LINE / 2)}`);
    lines[0] = '550-5.1.1 Your IP has been blocked';
    expect(classifyReply(parseReplyLines(lines))).toBe('policy_block');
  });

  it('a real mailbox refusal with a long tail stays a mailbox refusal', () => {
    const lines = reply('550', `5.1.1 ${'x'.repeat(LINE)}`);
    lines[0] = '550-5.1.1 The email account that you tried to reach does not exist';
    expect(classifyReply(parseReplyLines(lines))).toBe('mailbox_not_found');
  });
});
