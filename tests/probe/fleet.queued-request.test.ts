// A node works its requests first come, first served at each MX address: a second request for the
// same mail host (the CLI verifies four batches of a list at once; a bulk job's chunks run side by
// side) gets no result until the node is through the first one's work there, which with a fleet RCPT
// budget may take far longer than the stall bound. Its node is busy, not stalled: its other stream
// brings results all along. Such a request must be waited for, not cut, its node must not be left
// out, and its addresses must not be verified again elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { startProbeDaemon, type ProbeDaemon } from '../../probe/daemon/server';
import { startMailWorld, type DomainSpec, type MailboxState, type MailWorld } from '../mailworld/index';
import { collect } from './fake-nodes';
import { expectedOutcome, fleetProbeOptions, outcome } from './mailworld-helpers';

const TOKEN = 'queued-token';
const mailboxes: Record<string, MailboxState> = Object.fromEntries(Array.from({ length: 60 }, (_, j) => [`u${j}`, 'ok']));
// Two domains on one mail host: both requests wait for room at the same MX address.
const domains: DomainSpec[] = [0, 1].map((i) => ({
  domain: `shared${i}.queue.test`,
  scenario: 'small',
  mx: [{ host: 'mx.queue.test', priority: 10, ip: '127.93.4.1' }],
  mailboxes,
  addresses: Object.keys(mailboxes),
}));

let world: MailWorld;
let daemon: ProbeDaemon;
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 3 });
  // 10 RCPTs a second to one MX address, 5 per session: results come in small groups, a second apart.
  daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(world), sourceIps: ['127.0.0.2'], maxRcptsPerSession: 5, mxRcptBudget: { rcpts: 10, windowMs: 1_000, fleet: { budget: 10, size: 1 } } } });
});
afterAll(async () => {
  await daemon?.close();
  await world?.stop();
});

describe('ProbeClient with two requests queued at one busy node', () => {
  it('waits for the request queued behind the other (the node streams results all along): both calls answered, no stall, nothing verified twice', { timeout: 60_000 }, async () => {
    const client = new ProbeClient({ urls: [daemon.url], token: TOKEN, retry: { backoffMs: 10 }, fleet: { stallTimeoutMs: { bulk: 4_000 } } });
    const first = world.emails.filter((e) => e.endsWith('@shared0.queue.test'));
    const second = world.emails.filter((e) => e.endsWith('@shared1.queue.test')).slice(0, 20);
    const [a, b] = await Promise.all([
      collect(client.verify(first, { depth: 'smtp', mode: 'bulk' })),
      new Promise((r) => setTimeout(r, 200)).then(() => collect(client.verify(second, { depth: 'smtp', mode: 'bulk' }))),
    ]);
    expect(outcome(a)).toEqual(expectedOutcome(world, first));
    expect(outcome(b)).toEqual(expectedOutcome(world, second));
    expect(client.stats.stalls).toBe(0);
    expect(client.stats.replanned).toBe(0);
    expect(client.stats.requests[daemon.url]).toBe(2);
  });
});
