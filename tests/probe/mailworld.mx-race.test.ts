// No dead time before the next MX (issue #11 item 4): when a mail server has not connected and
// greeted within the head start, the next MX address is asked in parallel and the first final
// answer wins; the losing session is closed (QUIT when it had greeted, else disconnected). A backup
// that accepts everyone is caught by the catch-all check; a lone slow server is still waited for.
// The banner timeout is set far beyond every test's own timeout, so a verifier that waited it out
// before the next MX could not pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type DomainSpec, type MailWorld, type ServerSpec } from '../mailworld/index';
import { expectedOutcome, fastProbeOptions, outcome } from './mailworld-helpers';

const HEAD_START_MS = 200;
const SLOW_BANNER_MS = 900;

function domain(n: number, name: string, primary: ServerSpec, backup: ServerSpec | null, extra: Partial<DomainSpec> = {}): DomainSpec {
  const d = `${name}.race.test`;
  return {
    domain: d,
    scenario: name,
    mx: [
      { host: `mx1.${d}`, priority: 10, ip: `127.93.${n}.1`, server: primary },
      ...(backup ? [{ host: `mx2.${d}`, priority: 20, ip: `127.93.${n}.2`, server: backup }] : []),
    ],
    mailboxes: { alice: 'ok', bob: 'ok' },
    addresses: ['alice', 'bob', 'ghost'],
    ...extra,
  };
}

const domains: DomainSpec[] = [
  domain(1, 'blackholed-primary', { mode: 'silent' }, {}),
  domain(2, 'slow-primary', { bannerDelayMs: SLOW_BANNER_MS }, {}),
  domain(3, 'accept-all-backup', { mode: 'silent' }, { acceptAll: true }),
  domain(4, 'slow-primary-accept-all-backup', { bannerDelayMs: SLOW_BANNER_MS }, { acceptAll: true }),
  domain(5, 'lone-slow', { bannerDelayMs: SLOW_BANNER_MS }, null),
  // The backup greets at once but answers EHLO slowly: the slow primary answers first.
  domain(6, 'slow-backup-answers', { bannerDelayMs: 400 }, { slowRepliesMs: 4000 }),
];

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 5 });
});
afterAll(async () => {
  await world?.stop();
});

async function verify(name: string, o: { bulk?: boolean; bannerTimeoutMs?: number } = {}): Promise<VerificationResult[]> {
  const spec = domains.find((d) => d.scenario === name);
  if (!spec) throw new Error(name);
  const verifier = createVerifier({ ...fastProbeOptions(world), mxHeadStartMs: HEAD_START_MS, connectTimeoutMs: 30_000, bannerTimeoutMs: o.bannerTimeoutMs ?? 30_000, replyTimeoutMs: 30_000 });
  const out: VerificationResult[] = [];
  try {
    const emails = spec.addresses.map((l) => `${l}@${spec.domain}`);
    for await (const r of verifier.verifyBatch(emails, { depth: 'smtp', mode: o.bulk ? 'bulk' : 'realtime' })) out.push(r);
  } finally {
    await verifier.close();
  }
  return out;
}

const host = (ip: string) => {
  const h = world.counters.perIp.get(ip);
  if (!h) throw new Error(ip);
  return h;
};

describe('the next MX is asked in parallel after a short head start', () => {
  it('a blackholed primary (never greets): the secondary answers, long before any banner timeout', { timeout: 8000 }, async () => {
    const results = await verify('blackholed-primary');
    expect(outcome(results)).toEqual(expectedOutcome(world, results.map((r) => r.email)));
    expect(outcome(results)).toMatchObject({ 'alice@blackholed-primary.race.test': 'deliverable/accepted', 'ghost@blackholed-primary.race.test': 'undeliverable/mailbox_not_found' });
    expect(results.every((r) => r.evidence.mx_ip === '127.93.1.2')).toBe(true);
    // The primary's sessions were dropped (it never said a word), not waited out.
    expect(host('127.93.1.1').connections).toBeGreaterThanOrEqual(1);
  });

  it('a slow-greeting primary: the secondary wins the race and the primary is disconnected before its greeting', { timeout: 8000 }, async () => {
    const before = { ...host('127.93.2.1') };
    const results = await verify('slow-primary');
    expect(outcome(results)).toEqual(expectedOutcome(world, results.map((r) => r.email)));
    expect(results.every((r) => r.evidence.mx_ip === '127.93.2.2')).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    const primary = host('127.93.2.1');
    expect(primary.closedBeforeBanner - before.closedBeforeBanner).toBeGreaterThanOrEqual(1);
    expect(primary.rcpts - before.rcpts).toBe(0);
  });

  it('when the slow primary answers first, the greeted backup is closed politely with QUIT', { timeout: 8000 }, async () => {
    const results = await verify('slow-backup-answers');
    expect(outcome(results)).toEqual(expectedOutcome(world, results.map((r) => r.email)));
    expect(results.every((r) => r.evidence.mx_ip === '127.93.6.1')).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    const backup = host('127.93.6.2');
    expect(backup.connections).toBeGreaterThanOrEqual(1);
    expect(backup.rcpts).toBe(0);
    expect(backup.quits).toBe(backup.connections);
    expect(backup.closedBeforeBanner).toBe(0);
    expect(world.counters.violations).toEqual([]);
  });

  it('a backup that accepts everyone is caught by the catch-all check, never trusted: with the primary silent to its banner timeout, catch-all', { timeout: 8000 }, async () => {
    const results = await verify('accept-all-backup', { bannerTimeoutMs: 1500 });
    for (const r of results) expect(`${r.verdict}/${r.reason}`).toBe('risky/catch_all');
    expect(results.every((r) => r.evidence.mx_ip === '127.93.3.2' && r.catch_all === true)).toBe(true);
  });

  for (const mode of ['bulk', 'realtime'] as const) {
    it(`${mode}: a slow primary behind a backup that accepts everyone is waited for, and its answers decide (the backup's say nothing of the mailbox)`, { timeout: 8000 }, async () => {
      const before = { ...host('127.93.4.1') };
      const results = await verify('slow-primary-accept-all-backup', { bulk: mode === 'bulk' });
      expect(outcome(results)).toEqual(expectedOutcome(world, results.map((r) => r.email)));
      expect(outcome(results)).toMatchObject({ 'alice@slow-primary-accept-all-backup.race.test': 'deliverable/accepted', 'ghost@slow-primary-accept-all-backup.race.test': 'undeliverable/mailbox_not_found' });
      expect(results.every((r) => r.evidence.mx_ip === '127.93.4.1')).toBe(true);
      expect(host('127.93.4.1').rcpts - before.rcpts).toBeGreaterThanOrEqual(3);
    });
  }

  it('a lone slow server is waited for (there is nothing else to ask)', { timeout: 8000 }, async () => {
    const results = await verify('lone-slow');
    expect(outcome(results)).toEqual(expectedOutcome(world, results.map((r) => r.email)));
    expect(outcome(results)).toMatchObject({ 'alice@lone-slow.race.test': 'deliverable/accepted', 'ghost@lone-slow.race.test': 'undeliverable/mailbox_not_found' });
    expect(host('127.93.5.1').closedBeforeBanner).toBe(0);
  });
});
