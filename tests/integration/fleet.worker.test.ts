// Three real probe daemon processes (own source address, HELO and MAIL FROM each) behind
// PROBE_URLS, a bulk job through the server's worker, and one node SIGKILLed mid-job: the others
// finish its in-flight work; the job completes with every address once and credits taken once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps, createDeps } from '../../server/boot';
import { readEnv } from '../../server/env';
import { createJob } from '../../server/features/jobs/jobs.service';
import { startWorker } from '../../server/worker/runner';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { spawnProbeNode, type ProbeNode } from '../helpers/probe-fleet';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { credits, plainDomains, resultStats, seedAccount, waitForJob } from './jobs.world';

const TOKEN = 'fleet-worker-token';
const SOURCES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

// One provider holds most of the list (900 of 1,300), the rest is 40 small domains.
const big: DomainSpec = { domain: 'bigprovider.test', scenario: 'big provider', mx: [{ host: 'mx.bigprovider.test', priority: 10, ip: '127.97.0.1', server: { maxRcptsPerSession: 100 } }], mailboxes: {}, addresses: [] };
for (let i = 0; i < 900; i++) {
  big.addresses.push(`member${i}`);
  if (i % 5 !== 4 && big.mailboxes) big.mailboxes[`member${i}`] = 'ok';
}
const domains = [big, ...plainDomains(40, 10, 'fleetjob')];

let world: MailWorld;
let tdb: TestDb;
let nodes: ProbeNode[] = [];
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 10 });
  const env = { ...world.probeEnv(), PROBE_CONNECT_TIMEOUT_MS: '1000', PROBE_BANNER_TIMEOUT_MS: '2000', PROBE_REPLY_TIMEOUT_MS: '2000', PROBE_MAX_CONN_PER_IP: '2', PROBE_MAX_RCPTS_PER_SESSION: '10' };
  [tdb, ...nodes] = await Promise.all([createTestDb(), ...SOURCES.map((sourceIp) => spawnProbeNode({ sourceIp, token: TOKEN, env }))]);
}, 90_000);
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await tdb?.close();
  await world?.stop();
});

describe('a bulk job on a fleet of three probe processes', () => {
  it('completes with every address once and credits taken once when one node is SIGKILLed mid-job', async () => {
    const { accountId, userId } = await seedAccount(tdb.db, { plan: 'starter', credits: 5000 });
    const emails = world.emails;
    expect(emails).toHaveLength(1300);
    const { jobId } = await createJob(tdb.db, { accountId, userId, filename: 'fleet.csv', emails, source: 'upload', depth: 'smtp' });

    const env = readEnv({ NODE_ENV: 'test', DATA_DIR: '.data/test', WORKER_CONCURRENCY: '2' });
    const deps = await createDeps({ env, databaseUrl: tdb.url, probe: { urls: nodes.map((n) => n.url), token: TOKEN }, runMigrations: false, poolSize: 6 });
    const worker = await startWorker(deps, { cron: false, pollInterval: 100 });
    const victim = nodes[1]!;
    try {
      const mid = await waitForJob(tdb.db, jobId, { timeoutMs: 60_000, until: (j) => j.processed_emails >= 200 || j.status === 'completed' || j.status === 'failed' });
      expect(mid.status).toBe('processing');
      // Kill the node while it has sessions open (work in flight).
      const openFromVictim = () => world.counters.perIp.get('127.97.0.1')?.byClient.get(victim.sourceIp)?.open ?? 0;
      await expect.poll(openFromVictim, { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
      await victim.kill();
      const afterKill = world.counters.perIp.get('127.97.0.1')?.byClient.get(victim.sourceIp)?.connections ?? 0;
      const done = await waitForJob(tdb.db, jobId, { timeoutMs: 90_000 });
      expect(done.status).toBe('completed');
      expect(done.processed_emails).toBe(1300);
      // The killed node had been working on the big provider; it did nothing after its death.
      expect(afterKill).toBeGreaterThan(0);
      expect(world.counters.perIp.get('127.97.0.1')?.byClient.get(victim.sourceIp)?.connections).toBe(afterKill);
      // The two survivors spoke to the big provider from their own addresses, within their caps.
      const host = world.counters.perIp.get('127.97.0.1');
      for (const n of nodes.filter((x) => x !== victim)) expect(host?.byClient.get(n.sourceIp)?.connections).toBeGreaterThan(0);
      expect([...(host?.byClient.values() ?? [])].every((c) => c.maxConcurrent <= 2)).toBe(true);
    } finally {
      await worker.stop();
      await closeDeps(deps);
    }
    expect(await resultStats(tdb.db, jobId)).toEqual({ rows: 1300, unique: 1300 });
    expect(await credits(tdb.db, accountId)).toBe(5000 - 1300);
  }, 180_000);
});
