// The fleet client times its cooldowns and memories by the monotonic clock: a wall clock stepped back
// (an NTP correction, a VM resumed from a snapshot, an operator fixing the time) must not keep a node
// skipped, or a catch-all answer reused, for as long as the step.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { VerificationResult } from '../contract';
import { CatchAllMemory } from './catch-all-memory';
import { FleetHealth } from './fleet-health';

const HOUR = 3_600_000;
let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"node":"n1"}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
afterEach(() => vi.restoreAllMocks());

/** The wall clock from now on, `ms` behind. */
function stepClockBack(ms: number): void {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() - ms);
}

describe('the fleet client when the wall clock is stepped back', () => {
  it('asks a failed node again after the cooldown, not an hour later', async () => {
    const health = new FleetHealth({ urls: [url], token: 't', rounds: 1, backoffMs: 10, cooldownMs: 100, timeoutMs: 1_000, ttlMs: 100, warnings: [] });
    expect(await health.liveNodes()).toEqual([url]);
    health.markDown(url); // a request it failed
    stepClockBack(HOUR);
    await new Promise((r) => setTimeout(r, 250));
    expect(await health.liveNodes()).toEqual([url]);
  });

  it('forgets a catch-all answer after its period, not an hour later', async () => {
    const memory = new CatchAllMemory(100);
    memory.learn({ email: 'a@shop.test', normalized: 'a@shop.test', catch_all: true } as VerificationResult);
    stepClockBack(HOUR);
    await new Promise((r) => setTimeout(r, 250));
    expect(memory.hintsFor(['b@shop.test'])).toBeUndefined();
  });
});
