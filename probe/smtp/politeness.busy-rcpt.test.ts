// A 421 before any recipient was answered, at MAIL FROM or at the first RCPT, lowers the connection
// cap toward that MX IP the same way.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedSmtp, type RunningServer } from '../testing/fake-smtp';
import { Politeness } from './politeness';
import { probeDomain } from './probe-domain';
import type { SmtpContext } from './domain-probe/types';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** How many slots to `ip` can be had at once right now (the current connection cap). */
async function capNow(p: Politeness, ip: string, max: number): Promise<number> {
  const slots: (() => void)[] = [];
  for (let i = 0; i < max; i++) {
    const ac = new AbortController();
    const t = setTimeout(() => ac.abort(), 50);
    try {
      slots.push(await p.acquire(ip, ac.signal));
    } catch {
      break;
    } finally {
      clearTimeout(t);
    }
  }
  for (const s of slots) s();
  return slots.length;
}

async function probeAgainst(stage: 'MAIL' | 'RCPT') {
  const srv = await startScriptedSmtp({
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-fake.test\r\n250 PIPELINING';
      if (line.startsWith('QUIT')) return '221 bye';
      if (line.startsWith(stage)) return '421 4.7.0 Too many connections from your IP, closing transmission channel';
      return '250 ok';
    },
  });
  servers.push(srv);
  const politeness = new Politeness({ maxConnectionsPerIp: 5, maxRcptsPerSession: 20, globalConcurrency: 100 });
  const ctx: SmtpContext = { politeness, port: srv.port, heloName: 'probe.test', mailFrom: 'verify@probe.test', connectTimeoutMs: 1500, bannerTimeoutMs: 1500, replyTimeoutMs: 1500, maxConnectionsPerIp: 5, noTlsIps: new Set() };
  const addresses = Array.from({ length: 100 }, (_, i) => `user${i}@d.test`);
  await probeDomain({ targets: [{ host: 'mx.d.test', ip: '127.0.0.1', priority: 10 }], addresses, randomAddress: null, knownCatchAll: false, ctx, deadlineMs: 1500, retryDelaysMs: [], onSettled: () => undefined });
  await new Promise((r) => setTimeout(r, 100)); // every socket closed, every slot back
  return { cap: await capNow(politeness, '127.0.0.1', 5), connections: srv.counters.connections, maxConcurrent: srv.counters.maxConcurrent };
}

describe('a 421 before any recipient', () => {
  it('a 421 to MAIL FROM lowers the connection cap', async () => {
    const r = await probeAgainst('MAIL');
    expect(r.cap).toBeLessThan(5);
  });

  it('a 421 to the first RCPT lowers the connection cap too', async () => {
    const r = await probeAgainst('RCPT');
    expect(r.cap).toBeLessThan(5);
  });
});
