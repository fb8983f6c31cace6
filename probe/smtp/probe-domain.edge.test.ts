// probeDomain against servers that misbehave in ways a review found it mishandled: a recipient limit
// per hour (452 from the first RCPT on: back off, settle by the deadline, no reconnect storm), a
// connection turned away while another session to the same server is answered (the server is not
// "unreachable", and an address greylisted meanwhile still gets its result), our sender refused at
// RCPT time (never "mailbox does not exist"), and a caller gone while a goodbye is unanswered.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedSmtp, type RunningServer } from '../testing/fake-smtp';
import { Politeness } from './politeness';
import { probeDomain, type DomainProbeParams, type MailboxOutcome, type SmtpContext } from './probe-domain';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const EHLO = '250-fake.test\r\n250 PIPELINING';
function ctx(port: number, over: Partial<SmtpContext> = {}, limits = { perIp: 5, rcpts: 20 }): SmtpContext {
  return {
    politeness: new Politeness({ maxConnectionsPerIp: limits.perIp, maxRcptsPerSession: limits.rcpts, globalConcurrency: 100 }),
    port, heloName: 'probe.test', mailFrom: 'verify@probe.test',
    connectTimeoutMs: 1500, bannerTimeoutMs: 1500, replyTimeoutMs: 1500,
    maxConnectionsPerIp: limits.perIp, noTlsIps: new Set(), ...over,
  };
}
async function run(p: Omit<DomainProbeParams, 'onSettled'>) {
  const settled = new Map<string, { outcome: MailboxOutcome; catchAll: boolean | null }>();
  const res = await probeDomain({ ...p, onSettled: (a, outcome, catchAll) => settled.set(a, { outcome, catchAll }) });
  return { ...res, settled };
}

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
    // One MX. Connection 2 is dropped at once (e.g. over the server's own connection limit); connection 1 greylists.
    const net = await import('node:net');
    let conns = 0;
    const sockets = new Set<import('node:net').Socket>();
    const srv = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
      const n = ++conns;
      if (n === 2) return void socket.destroy();
      socket.write('220 fake.test ESMTP\r\n');
      let buf = '';
      socket.on('data', (d) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\r\n')) >= 0) {
          const l = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const reply = l.startsWith('EHLO') ? '250 fake.test' : l.startsWith('RCPT') ? '451 4.7.1 Greylisted, try again later' : l.startsWith('QUIT') ? '221 bye' : '250 ok';
          // the RCPT answer comes a little late, after connection 2 has failed
          setTimeout(() => socket.writable && socket.write(`${reply}\r\n`), l.startsWith('RCPT') ? 150 : 0);
          if (l.startsWith('QUIT')) setTimeout(() => socket.end(), 160);
        }
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    servers.push({ port: 0, counters: { connections: 0, current: 0, maxConcurrent: 0, rcptsPerSession: [] }, close: () => new Promise<void>((r) => { for (const s of sockets) s.destroy(); srv.close(() => r()); }) });
    const port = (srv.address() as import('node:net').AddressInfo).port;
    const ac = new AbortController();
    const guard = setTimeout(() => ac.abort(), 3000);
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(port, {}, { perIp: 2, rcpts: 1 }), deadlineMs: 1000, retryDelaysMs: [100], signal: ac.signal }).catch((e: Error) => e);
    clearTimeout(guard);
    if (r instanceof Error) throw r; // before: the stack overflowed and nothing settled
    expect([...r.settled.values()].map((v) => v.outcome.finding).sort()).toEqual(['greylisted', 'greylisted']);
  });

  it('one dropped connection (server over its own connection limit) does not make a server that is answering in another session "unreachable"', async () => {
    const net = await import('node:net');
    let conns = 0;
    const sockets = new Set<import('node:net').Socket>();
    const srv = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
      if (++conns === 2) return void socket.destroy();
      socket.write('220 fake.test ESMTP\r\n');
      let buf = '';
      socket.on('data', (d) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\r\n')) >= 0) {
          const l = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const reply = l.startsWith('EHLO') ? '250 fake.test' : l.startsWith('QUIT') ? '221 bye' : '250 ok';
          setTimeout(() => socket.writable && socket.write(`${reply}\r\n`), l.startsWith('RCPT') ? 150 : 0);
          if (l.startsWith('QUIT')) setTimeout(() => socket.end(), 160);
        }
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    servers.push({ port: 0, counters: { connections: 0, current: 0, maxConcurrent: 0, rcptsPerSession: [] }, close: () => new Promise<void>((r) => { for (const s of sockets) s.destroy(); srv.close(() => r()); }) });
    const port = (srv.address() as import('node:net').AddressInfo).port;
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test', 'c@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(port, {}, { perIp: 2, rcpts: 1 }), deadlineMs: 1000, retryDelaysMs: [100] });
    expect([...r.settled.values()].map((v) => v.outcome.finding)).toEqual(['accepted', 'accepted', 'accepted']);
  });

  it('after an abort no socket to the mail server stays open (server that never answers QUIT)', async () => {
    const net = await import('node:net');
    let open = 0;
    const sockets = new Set<import('node:net').Socket>();
    const srv = net.createServer((socket) => {
      sockets.add(socket);
      open++;
      socket.on('error', () => undefined);
      socket.on('close', () => (sockets.delete(socket), open--));
      socket.write('220 fake.test ESMTP\r\n');
      let buf = '';
      socket.on('data', (d) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\r\n')) >= 0) {
          const l = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (l.startsWith('QUIT')) continue; // never answers QUIT, never closes
          socket.write(`${l.startsWith('EHLO') ? EHLO : l.startsWith('RCPT') ? '451 4.7.1 Greylisted, try again later' : '250 ok'}\r\n`);
        }
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    servers.push({ port: 0, counters: { connections: 0, current: 0, maxConcurrent: 0, rcptsPerSession: [] }, close: () => new Promise<void>((r) => { for (const s of sockets) s.destroy(); srv.close(() => r()); }) });
    const port = (srv.address() as import('node:net').AddressInfo).port;
    const ac = new AbortController();
    const p = run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(port, { replyTimeoutMs: 5000 }), deadlineMs: 10_000, retryDelaysMs: [5000], signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    await expect(p).rejects.toThrow(/aborted/);
    const t = Date.now();
    while (open > 0 && Date.now() - t < 6000) await new Promise((r) => setTimeout(r, 50));
    expect(Date.now() - t).toBeLessThan(1000); // not the 2 × 2 s a polite goodbye may take
  });
});
