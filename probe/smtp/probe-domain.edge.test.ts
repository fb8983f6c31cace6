// probeDomain against servers that misbehave in ways a review found it mishandled: a recipient limit
// per hour (452 from the first RCPT on: back off, settle by the deadline, no reconnect storm), a
// connection turned away while another session to the same server is answered (the server is not
// "unreachable", and an address greylisted meanwhile still gets its result), our sender refused at
// RCPT time (never "mailbox does not exist"), and a caller gone while a goodbye is unanswered.
import { afterEach, describe, expect, it } from 'vitest';
import { runProbe, smtpContext, startRawSmtp } from '../testing/domain-probe';
import { startScriptedSmtp } from '../testing/fake-smtp';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const EHLO = '250-fake.test\r\n250 PIPELINING';
const ctx = smtpContext;
const run = runProbe;

describe('a domain probe against servers that misbehave', () => {
  it('452 to the first RCPT of every session (hourly recipient limit): backs off and settles by the deadline', async () => {
    const srv = await startScriptedSmtp({
      reply: (l) => (l.startsWith('EHLO') ? EHLO : l.startsWith('RCPT') ? '452 4.5.3 Too many recipients received this hour' : l.startsWith('QUIT') ? '221 bye' : '250 ok'),
    });
    servers.push(srv);
    const ac = new AbortController();
    const guard = setTimeout(() => ac.abort(), 4000);
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(srv.port, {}, { perIp: 1, rcpts: 20 }), deadlineMs: 1000, retryDelaysMs: [200], signal: ac.signal }).catch((e: Error) => e);
    clearTimeout(guard);
    if (r instanceof Error) throw r; // before: ~300 connections in 4 s and no result
    expect([...r.settled.values()].map((v) => v.outcome.finding)).toEqual(['greylisted', 'greylisted']);
    expect(srv.counters.connections).toBeLessThan(20);
  });

  it('Exim sender verification failure at RCPT ("Sender verify failed") is not "mailbox does not exist"', async () => {
    const srv = await startScriptedSmtp({
      reply: (l) =>
        l.startsWith('EHLO') ? EHLO
        : l.startsWith('RCPT') ? '550-Verification failed for <verify@probe.test>\r\n550-Unrouteable address\r\n550 Sender verify failed'
        : l.startsWith('QUIT') ? '221 bye' : '250 ok',
    });
    servers.push(srv);
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['alice@d.test'], randomAddress: 'xrandom@d.test', knownCatchAll: null, ctx: ctx(srv.port), deadlineMs: 1000, retryDelaysMs: [] });
    expect(r.settled.get('alice@d.test')?.outcome.finding).toBe('policy_block');
  });

  it('greylisted in one session while a parallel session to the same IP was dropped: the greylisted address still gets a result', async () => {
    // One MX. Connection 2 is dropped at once (e.g. over the server's own connection limit); connection 1
    // greylists, its RCPT answer coming a little late, after connection 2 has failed.
    const srv = await startRawSmtp({
      drop: (n) => n === 2,
      reply: (l) => (l.startsWith('EHLO') ? '250 fake.test' : l.startsWith('RCPT') ? '451 4.7.1 Greylisted, try again later' : l.startsWith('QUIT') ? '221 bye' : '250 ok'),
      delayMs: (l) => (l.startsWith('RCPT') ? 150 : 0),
    });
    servers.push(srv);
    const port = srv.port;
    const ac = new AbortController();
    const guard = setTimeout(() => ac.abort(), 3000);
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(port, {}, { perIp: 2, rcpts: 1 }), deadlineMs: 1000, retryDelaysMs: [100], signal: ac.signal }).catch((e: Error) => e);
    clearTimeout(guard);
    if (r instanceof Error) throw r; // before: the stack overflowed and nothing settled
    expect([...r.settled.values()].map((v) => v.outcome.finding).sort()).toEqual(['greylisted', 'greylisted']);
  });

  it('one dropped connection (server over its own connection limit) does not make a server that is answering in another session "unreachable"', async () => {
    const srv = await startRawSmtp({
      drop: (n) => n === 2,
      reply: (l) => (l.startsWith('EHLO') ? '250 fake.test' : l.startsWith('QUIT') ? '221 bye' : '250 ok'),
      delayMs: (l) => (l.startsWith('RCPT') ? 150 : 0),
    });
    servers.push(srv);
    const port = srv.port;
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test', 'c@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(port, {}, { perIp: 2, rcpts: 1 }), deadlineMs: 1000, retryDelaysMs: [100] });
    expect([...r.settled.values()].map((v) => v.outcome.finding)).toEqual(['accepted', 'accepted', 'accepted']);
  });

  it('after an abort no socket to the mail server stays open (server that never answers QUIT)', async () => {
    const srv = await startRawSmtp({
      // never answers QUIT, never closes
      reply: (l) => (l.startsWith('QUIT') ? null : l.startsWith('EHLO') ? EHLO : l.startsWith('RCPT') ? '451 4.7.1 Greylisted, try again later' : '250 ok'),
    });
    servers.push(srv);
    const port = srv.port;
    const ac = new AbortController();
    const p = run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(port, { replyTimeoutMs: 5000 }), deadlineMs: 10_000, retryDelaysMs: [5000], signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    await expect(p).rejects.toThrow(/aborted/);
    const t = Date.now();
    while (srv.open > 0 && Date.now() - t < 6000) await new Promise((r) => setTimeout(r, 50));
    expect(Date.now() - t).toBeLessThan(1000); // not the 2 × 2 s a polite goodbye may take
  });
});
