// A mail world in its own process (bench:fleet): it serves like an in-process one, hands its ground
// truth to the parent, reports and resets its counters over IPC, and goes away on stop().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScenarios } from './index';
import { SmtpTestClient } from './smtp-test-client';
import { startMailWorldProcess, type MailWorldProcess } from './world-process';

let world: MailWorldProcess;
beforeAll(async () => {
  world = await startMailWorldProcess({ domains: buildScenarios().slice(0, 1) });
}, 60_000);
afterAll(async () => {
  await world?.stop();
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('mail world process', () => {
  it('serves SMTP from the child, counts what it saw, resets on request and exits on stop', { timeout: 60_000 }, async () => {
    expect(world.pid).not.toBe(process.pid);
    expect(world.truth.get('ghost@normal.mailworld.test')?.reason).toBe('mailbox_not_found');
    expect(world.probeEnv().PROBE_SMTP_PORT).toBe(String(world.smtpPort));

    const c = await SmtpTestClient.connect('127.77.1.1', world.smtpPort);
    expect((await c.read())?.code).toBe(220);
    await c.cmd('EHLO probe.test');
    await c.cmd('MAIL FROM:<a@probe.test>');
    expect((await c.cmd('RCPT TO:<ghost@normal.mailworld.test>'))?.code).toBe(550);
    expect((await c.cmd('QUIT'))?.code).toBe(221);
    c.close();

    const seen = await world.counters();
    expect(seen.connections).toBe(1);
    expect(seen.rcpts).toBe(1);
    expect(seen.perIp.get('127.77.1.1')?.byClient.get('127.0.0.1')?.connections).toBe(1);

    await world.reset();
    expect((await world.counters()).rcpts).toBe(0);

    const pid = world.pid;
    await world.stop();
    expect(alive(pid)).toBe(false);
    await expect(SmtpTestClient.connect('127.77.1.1', world.smtpPort, 500)).rejects.toThrow();
  });
});
