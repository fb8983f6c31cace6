// The fleet RCPT budget across a node's restart: a real daemon process spends its share toward one
// MX, is killed with SIGKILL and started again at once on the same journal. The MX counts every RCPT
// it receives: with the journal, the restarted node waits until the first process's grants have left
// the window, so the MX never sees more than the share in any window; with the journal turned off,
// the same restart sends the share a second time inside the window (what the journal is for).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { maxInAnyWindow } from '../../probe/testing/rate-window';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { spawnProbeNode } from '../helpers/probe-fleet';
import { collect } from './fake-nodes';
import { expectedOutcome, outcome } from './mailworld-helpers';

const TOKEN = 'budget-restart-token';
const MX_IP = '127.87.0.1';
/** One node's share: 8 RCPTs per 8 s window (a window shortened for the test; production refuses below a minute). */
const SHARE = 8;
const WINDOW_MS = 8_000;

const domain: DomainSpec = { domain: 'restartmail.test', scenario: 'budget across a restart', mx: [{ host: 'mx.restartmail.test', priority: 10, ip: MX_IP, server: { maxRcptsPerSession: 100 } }], mailboxes: {}, addresses: [] };
for (let i = 0; i < 14; i++) {
  domain.addresses.push(`user${i}`);
  if (i % 2 === 0 && domain.mailboxes) domain.mailboxes[`user${i}`] = 'ok';
}

let world: MailWorld;
let dir: string;
beforeAll(async () => {
  world = await startMailWorld({ domains: [domain], replyDelayMs: 2 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'budget-restart-'));
});
afterAll(async () => {
  await world?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Seven addresses and the random mailbox (8 RCPTs, the whole share) on one node; kill -9; the next seven on a new process. */
async function spendKillRestart(journal: string): Promise<number[]> {
  world.resetCounters();
  const env = {
    ...world.probeEnv(),
    PROBE_CONNECT_TIMEOUT_MS: '2000',
    PROBE_BANNER_TIMEOUT_MS: '3000',
    PROBE_REPLY_TIMEOUT_MS: '3000',
    PROBE_FLEET_MX_RCPT_PER_MINUTE: String(SHARE),
    PROBE_FLEET_SIZE: '1',
    PROBE_FLEET_MX_RCPT_WINDOW_MS: String(WINDOW_MS),
    PROBE_FLEET_MX_RCPT_JOURNAL: journal,
  };
  const emails = world.emails;
  for (const [i, batch] of [emails.slice(0, 7), emails.slice(7, 14)].entries()) {
    const node = await spawnProbeNode({ sourceIp: '127.0.0.2', token: TOKEN, env });
    try {
      const results = await collect(new ProbeClient({ urls: [node.url], token: TOKEN }).verify(batch, { depth: 'smtp', mode: 'bulk', signal: AbortSignal.timeout(40_000) }));
      expect(outcome(results), `batch ${i}`).toEqual(expectedOutcome(world, batch));
    } finally {
      await node.kill();
    }
  }
  return world.counters.perIp.get(MX_IP)?.rcptTimes ?? [];
}

describe('the fleet RCPT budget when a node is killed and started again', () => {
  it('with its journal, the restarted node never sends the MX more than its share in any window', { timeout: 60_000 }, async () => {
    const times = await spendKillRestart(path.join(dir, 'node.rcpt-journal'));
    expect(times.length).toBeGreaterThanOrEqual(2 * SHARE); // each process asked the random mailbox once
    expect(maxInAnyWindow(times, WINDOW_MS)).toBeLessThanOrEqual(SHARE);
  });

  it('with the journal off, the same restart spends the share again inside the window', { timeout: 60_000 }, async () => {
    const times = await spendKillRestart('off');
    expect(maxInAnyWindow(times, WINDOW_MS)).toBeGreaterThan(SHARE);
  });
});
