// Three real `mailvet probe` processes, each on its own source address, verify a list dominated by
// one provider through ProbeClient; the busiest is killed with SIGKILL mid-job. The job still
// completes with every address answered once, each with its ground-truth verdict: what the dead
// node owed is finished by the other two.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { expectedOutcome, freePort, outcome } from './mailworld-helpers';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'sigkill-token';
const SOURCES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

const big: DomainSpec = { domain: 'killbig.test', scenario: 'big provider', mx: [{ host: 'mx.killbig.test', priority: 10, ip: '127.99.0.1', server: { maxRcptsPerSession: 100 } }], mailboxes: {}, addresses: [] };
for (let i = 0; i < 240; i++) {
  big.addresses.push(`user${i}`);
  if (i % 4 !== 3) big.mailboxes![`user${i}`] = 'ok';
}
const small: DomainSpec[] = Array.from({ length: 9 }, (_, i) => ({
  domain: `small${i}.kill.test`,
  scenario: 'small',
  mx: [{ host: `mx.small${i}.kill.test`, priority: 10, ip: `127.99.1.${i + 1}` }],
  mailboxes: { a: 'ok', b: 'ok' },
  addresses: ['a', 'b', 'c'],
}));

let world: MailWorld;
const nodes: { url: string; child: ChildProcess }[] = [];

async function startNode(source: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), 'probe'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      ...world.probeEnv(),
      PROBE_PORT: String(port),
      PROBE_HOST: '127.0.0.1',
      PROBE_TOKEN: TOKEN,
      PROBE_SOURCE_IP: source,
      PROBE_HELO: `probe-${source}.mailvet.test`,
      PROBE_MAX_CONN_PER_IP: '1',
      PROBE_MAX_RCPTS_PER_SESSION: '5',
      PROBE_DNS_TIMEOUT_MS: '3000',
      PROBE_CONNECT_TIMEOUT_MS: '2000',
      PROBE_BANNER_TIMEOUT_MS: '3000',
      PROBE_REPLY_TIMEOUT_MS: '3000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr!.on('data', (d: Buffer) => {
      said += d.toString();
      if (said.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`probe node exited (${code}): ${said}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

beforeAll(async () => {
  world = await startMailWorld({ domains: [big, ...small], replyDelayMs: 15 });
  for (const source of SOURCES) nodes.push(await startNode(source));
}, 60_000);
afterAll(async () => {
  for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGTERM');
  await world?.stop();
});

describe('a probe node killed with SIGKILL mid-job', () => {
  it('has its in-flight work finished by the other nodes: every address once, every verdict the ground truth', { timeout: 60_000 }, async () => {
    const client = new ProbeClient({ urls: nodes.map((n) => n.url), token: TOKEN, retry: { backoffMs: 50 }, fleet: { splitMin: 30 } });
    const results: VerificationResult[] = [];
    let killed: string | null = null;
    for await (const r of client.verify(world.emails, { depth: 'smtp', mode: 'bulk' })) {
      results.push(r);
      if (results.length === 30 && !killed) {
        const [url] = Object.entries(client.stats.answered).sort((a, b) => b[1] - a[1])[0]!;
        killed = url;
        nodes.find((n) => n.url === url)!.child.kill('SIGKILL');
      }
    }
    expect(killed).not.toBeNull();
    expect(results).toHaveLength(world.emails.length);
    expect(new Set(results.map((r) => r.email)).size).toBe(world.emails.length);
    expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
    expect(client.stats.replanned).toBeGreaterThan(0);
    // The other two finished it: each answered part of the list.
    for (const n of nodes.filter((x) => x.url !== killed)) expect(client.stats.answered[n.url] ?? 0).toBeGreaterThan(0);
  });
});
