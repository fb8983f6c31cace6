// PROBE_URLS naming one probe daemon twice under two names (localhost and 127.0.0.1, a host name and
// its address): spelling alone cannot tell, so the client asks the node who it is (/healthz, with the
// token) and uses it once — one share of a big domain, not two; the fleet budget check counts it
// once; the operator is told once. A real daemon on 127.0.0.1; depth syntax (no DNS, no SMTP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { startProbeDaemon, type ProbeDaemon } from '../../probe/daemon/server';
import { collect, startFakeNode } from './fake-nodes';

const TOKEN = 'twice-token';
let node: ProbeDaemon;
let other: ProbeDaemon;
beforeAll(async () => {
  // A fleet of two with a budget shared by two: listing the first node twice must not look like three.
  const mxRcptBudget = { rcpts: 30, windowMs: 60_000, fleet: { budget: 60, size: 2 } };
  node = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { mxRcptBudget } });
  other = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { mxRcptBudget } });
});
afterAll(async () => {
  await node?.close();
  await other?.close();
});

describe('one probe node listed under two names', () => {
  it('is used once: one share of a big domain, no false "more nodes than PROBE_FLEET_SIZE" warning, said once', { timeout: 30_000 }, async () => {
    const port = new URL(node.url).port;
    const alias = `http://localhost:${port}`;
    const client = new ProbeClient({ urls: [node.url, alias, other.url], token: TOKEN, fleet: { splitMin: 20 } });
    const warn = console.warn;
    const warned: string[] = [];
    console.warn = (m: string) => void warned.push(m);
    try {
      expect((await client.liveNodes()).sort()).toEqual([node.url, other.url].sort());
      const emails = Array.from({ length: 120 }, (_, i) => `user${i}@big.twice.test`);
      for (let call = 0; call < 2; call++) {
        const results = await collect(client.verify(emails, { depth: 'syntax', mode: 'bulk' }));
        expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
      }
      expect(client.stats.requests[alias]).toBeUndefined();
      expect(client.stats.answered[node.url]).toBeGreaterThan(0);
      expect(client.stats.answered[other.url]).toBeGreaterThan(0);
      expect(client.stats.warnings.some((w) => w.includes('PROBE_FLEET_SIZE=2'))).toBe(false);
      const said = warned.filter((w) => w.includes(alias));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`${node.url} and ${alias} are the same probe node`);
    } finally {
      console.warn = warn;
    }
  });

  it('still uses the node under its other name when the first name does not reach it', { timeout: 30_000 }, async () => {
    const port = new URL(node.url).port;
    // The first name resolves nowhere reachable (a closed port on another loopback address); the second is the node.
    const client = new ProbeClient({ urls: [`http://127.0.0.9:${port}`, `http://localhost:${port}`], token: TOKEN, retry: { backoffMs: 10 } });
    const results = await collect(client.verify(['a@x.twice.test', 'b@y.twice.test'], { depth: 'syntax' }));
    expect(results).toHaveLength(2);
    expect(client.stats.answered[`http://localhost:${port}`]).toBe(2);
  });

  it('a node that fails a request is skipped under both its names: its work is not sent back to it under the other', { timeout: 30_000 }, async () => {
    // Healthy on /healthz (one node id), 500 to every verify request.
    const failing = await startFakeNode((_body, res) => void res.writeHead(500).end('{"error":"internal error"}'), '{"ok":true,"node":"failing-node"}');
    try {
      const port = new URL(failing.url).port;
      const names = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
      const client = new ProbeClient({ urls: [...names, other.url], token: TOKEN, retry: { backoffMs: 10 }, fleet: { splitMin: 20 } });
      const emails = Array.from({ length: 120 }, (_, i) => `user${i}@big.twice.test`);
      const results = await collect(client.verify(emails, { depth: 'syntax', mode: 'bulk' }));
      expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
      expect(failing.posts).toBe(1);
      expect(client.stats.requests[names[1]!]).toBeUndefined();
      expect(client.stats.answered[other.url]).toBe(120);
    } finally {
      await failing.close();
    }
  });
});
