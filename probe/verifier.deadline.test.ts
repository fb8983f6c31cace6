// A server that stops answering at a recipient (no reply, the connection left open) costs a reply
// timeout. The recipient is asked once more only when that second attempt can end before the check's
// deadline: a real-time check whose deadline it would pass answers at once (unknown/smtp_unreachable)
// instead of keeping the user waiting a second reply timeout for the same silence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp } from './testing/fake-smtp';
import { loopbackOptions } from './testing/loopback-options';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns({ 'stall.test': { mx: [[10, 'mx.stall.test']] }, 'mx.stall.test': { a: ['127.0.0.1'] } });
});
afterAll(() => dns.close());

/** How often the server was asked about `slow@`, and what each address came back as. */
async function check(mode: 'realtime' | 'bulk'): Promise<{ got: Record<string, string>; slowAsked: number }> {
  // One command at a time (no PIPELINING); RCPT for slow@ is never answered, the connection stays open.
  const server = await startScriptedSmtp({
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-mx.stall.test\r\n250 ENHANCEDSTATUSCODES';
      if (line.startsWith('RCPT')) return /<slow@/.test(line) ? null : /<alice@/.test(line) ? '250 2.1.5 Ok' : '550 5.1.1 User unknown';
      return line.startsWith('QUIT') ? '221 bye' : '250 2.1.0 Ok';
    },
  });
  const v = createVerifier(loopbackOptions(dns.server, server.port, { replyTimeoutMs: 800, greylistDeadlineMs: { realtime: 1200, bulk: 20_000 } }));
  try {
    const got: Record<string, string> = {};
    for await (const r of v.verifyBatch(['alice@stall.test', 'slow@stall.test'], { mode })) got[r.email] = `${r.verdict}/${r.reason}`;
    return { got, slowAsked: server.commandsSeen.flat().filter((c) => /^RCPT TO:<slow@/.test(c)).length };
  } finally {
    await v.close();
    await server.close();
  }
}

describe('a recipient whose reply never comes', () => {
  it('real-time, a second attempt could not end before the deadline: asked once, answered unknown at once', async () => {
    const { got, slowAsked } = await check('realtime');
    expect(got).toEqual({ 'alice@stall.test': 'deliverable/accepted', 'slow@stall.test': 'unknown/smtp_unreachable' });
    expect(slowAsked).toBe(1);
  });

  it('with time left before the deadline (bulk), it is asked once more before it is unknown', async () => {
    const { got, slowAsked } = await check('bulk');
    expect(got).toEqual({ 'alice@stall.test': 'deliverable/accepted', 'slow@stall.test': 'unknown/smtp_unreachable' });
    expect(slowAsked).toBe(2);
  });
});
