// After a 421 greeting this node pauses before its next connection to that MX IP, whichever domain
// the connection would be for (politeness.backOff), not only the recipients of that session.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Politeness } from './politeness';
import { probeDomain } from './probe-domain';
import type { SmtpContext } from './domain-probe/types';
import { SessionPool } from './session-pool';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A server that greets every connection with 421 and closes; it notes when each connection came. */
async function busyServer(): Promise<{ port: number; opened: number[] }> {
  const opened: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    opened.push(Date.now());
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    s.end('421 4.7.0 mx.shared.test Service not available, too busy, closing transmission channel\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(() => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }));
  return { port: (server.address() as net.AddressInfo).port, opened };
}

describe('a 421 at the greeting', () => {
  it('opens no new connection to the MX IP within the first busy backoff (250 ms) after a 421', async () => {
    const srv = await busyServer();
    const politeness = new Politeness({ maxConnectionsPerIp: 1, maxRcptsPerSession: 20, globalConcurrency: 100 });
    const ctx: SmtpContext = { politeness, port: srv.port, heloName: 'probe.test', mailFrom: 'verify@probe.test', connectTimeoutMs: 1500, bannerTimeoutMs: 1500, replyTimeoutMs: 1500, maxConnectionsPerIp: 1, noTlsIps: new Set(), pool: new SessionPool() };
    const target = [{ host: 'mx.shared.test', ip: '127.0.0.1', priority: 10 }];
    const domain = (name: string, n: number) =>
      probeDomain({ targets: target, addresses: Array.from({ length: n }, (_, i) => `u${i}@${name}`), randomAddress: null, knownCatchAll: false, ctx, deadlineMs: 800, retryDelaysMs: [], onSettled: () => undefined });
    // Two domains hosted on the same MX IP (shared hosting), 40 recipients each.
    await Promise.all([domain('a.test', 40), domain('b.test', 40)]);
    const first = srv.opened[0] ?? 0;
    const rel = srv.opened.map((t) => t - first);
    expect(rel.filter((t) => t < 200).length).toBe(1);
  });

  it('an MX that answers every greeting with 421 until the deadline: its addresses are smtp_unreachable (SCORING row 7), never greylisted', async () => {
    const srv = await busyServer();
    // One recipient per session: the second address waits for the first one's connection.
    const politeness = new Politeness({ maxConnectionsPerIp: 1, maxRcptsPerSession: 1, globalConcurrency: 100 });
    const ctx: SmtpContext = { politeness, port: srv.port, heloName: 'probe.test', mailFrom: 'verify@probe.test', connectTimeoutMs: 1500, bannerTimeoutMs: 1500, replyTimeoutMs: 1500, maxConnectionsPerIp: 1, noTlsIps: new Set() };
    const findings = new Map<string, string>();
    // The pause after the second 421 (500 ms) ends past the deadline: the rest is decided then.
    await probeDomain({
      targets: [{ host: 'mx.shared.test', ip: '127.0.0.1', priority: 10 }],
      addresses: ['a@d.test', 'b@d.test', 'c@d.test'],
      randomAddress: null,
      knownCatchAll: false,
      ctx,
      deadlineMs: 600,
      retryDelaysMs: [],
      onSettled: (address, outcome) => findings.set(address, outcome.finding),
    });
    expect(Object.fromEntries(findings)).toEqual({ 'a@d.test': 'smtp_unreachable', 'b@d.test': 'smtp_unreachable', 'c@d.test': 'smtp_unreachable' });
  });
});
