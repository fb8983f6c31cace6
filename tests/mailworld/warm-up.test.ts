// The world process's warm-up talks to the world (SMTP, DNS, RDAP) and then leaves no trace: counters
// from zero, no open connection counted, the greylist forgotten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScenarios, startMailWorld, type MailWorld } from './index';
import { SmtpTestClient } from './smtp-test-client';
import { warmUpWorld } from './warm-up';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains: buildScenarios({ greylistMs: 1 }), replyDelayMs: 5 });
});
afterAll(async () => {
  await world.stop();
});

describe('mail world warm-up', () => {
  it('runs SMTP sessions, DNS and RDAP queries, then zeroes every counter and the greylist', { timeout: 30_000 }, async () => {
    let seen = { connections: 0, rcpts: 0, dns: 0, rdap: 0 };
    const realReset = world.resetCounters;
    world.resetCounters = () => {
      seen = { connections: world.counters.connections, rcpts: world.counters.rcpts, dns: world.counters.dnsQueries, rdap: world.counters.rdapQueries };
      realReset();
    };
    const report = await warmUpWorld(world, { sessions: 40, dnsQueries: 60, rdapQueries: 20 });
    world.resetCounters = realReset;
    // It did the work it reports (as the world counted it just before the reset).
    expect(report.sessions).toBe(40);
    expect(seen.connections).toBe(40);
    expect(seen.rcpts).toBeGreaterThan(40);
    expect(seen.dns).toBe(60);
    expect(seen.rdap).toBe(20);
    // And left nothing behind.
    const c = world.counters;
    expect([c.connections, c.rcpts, c.dnsQueries, c.rdapQueries, c.pipelinedCommands, c.maxConcurrentPerIp, c.maxRcptsPerSession]).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(c.repliesByCode.size).toBe(0);
    expect(c.violations).toEqual([]);
    for (const h of c.perIp.values()) {
      expect([h.ip, h.current, h.connections, h.rcpts, h.rcptTimes.length, h.byClient.size]).toEqual([h.ip, 0, 0, 0, 0, 0]);
    }
    // The greylist forgot the warm-up's triplets (remembered, they would have passed the 1 ms window by now).
    const s = await SmtpTestClient.connect('127.77.3.1', world.smtpPort);
    expect((await s.read())?.code).toBe(220);
    await s.cmd('EHLO probe.test');
    await s.cmd('MAIL FROM:<warm-up@mailworld.test>');
    expect((await s.cmd('RCPT TO:<alice@greylist.mailworld.test>'))?.lines[0]).toMatch(/^451 4\.7\.1/);
    s.close();
  });
});
