// A bulk job whose last addresses wait out greylisting: the node has nothing to send while it waits
// (the default ladder waits a minute after the first retry, the bulk deadline is ten), yet it is not
// hung. Its stream stays alive (the daemon sends a blank line now and then while a stream has nothing
// to say), so ProbeClient's idle timeout only cuts a node that really went silent; the greylisted
// addresses reach their verdict on the node that started them, and none is sent twice.
import { describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import type { DomainSpec } from '../mailworld/index';
import { collect } from './fake-nodes';
import { expectedOutcome, outcome, worldWithTwoDaemons } from './mailworld-helpers';

const TOKEN = 'greylist-token';
const GREYLIST_MS = 2_500;
const IDLE_TIMEOUT_MS = 1_200;

const domains: DomainSpec[] = [
  { domain: 'slowgrey.test', scenario: `greylisting: 451 4.7.1 for ${GREYLIST_MS} ms, then the real answer`, greylistMs: GREYLIST_MS, mx: [{ host: 'mx.slowgrey.test', priority: 10, ip: '127.98.0.1' }], mailboxes: { alice: 'ok', bob: 'ok' }, addresses: ['alice', 'bob', 'ghost'] },
  ...Array.from({ length: 4 }, (_, i) => ({ domain: `quick${i}.grey.test`, scenario: 'normal', mx: [{ host: `mx.quick${i}.grey.test`, priority: 10, ip: `127.98.1.${i + 1}` }], mailboxes: { a: 'ok' as const }, addresses: ['a', 'b'] })),
];

// A retry soon, then one long wait (longer than the client's idle timeout), as the default ladder does with a minute.
const fleet = worldWithTwoDaemons(domains, TOKEN, { probe: { greylistDeadlineMs: { realtime: 2_000, bulk: 8_000 }, greylistRetryDelaysMs: [300, GREYLIST_MS, 1_000] }, heartbeatMs: 300 });

describe('ProbeClient while a node waits out greylisting', () => {
  it('does not take a node waiting between greylisting retries for a hung one: every address once, with its real verdict', { timeout: 30_000 }, async () => {
    const client = new ProbeClient({ urls: fleet.daemons.map((d) => d.url), token: TOKEN, fleet: { idleTimeoutMs: IDLE_TIMEOUT_MS } });
    const results = await collect(client.verify(fleet.world.emails, { depth: 'smtp', mode: 'bulk' }));

    expect(results).toHaveLength(fleet.world.emails.length);
    expect(new Set(results.map((r) => r.email)).size).toBe(fleet.world.emails.length);
    expect(outcome(results)).toEqual(expectedOutcome(fleet.world, fleet.world.emails));
    expect(results.find((r) => r.email === 'alice@slowgrey.test')?.verdict).toBe('deliverable');
    expect(client.stats.idleTimeouts).toBe(0);
    expect(client.stats.replanned).toBe(0);
  });
});
