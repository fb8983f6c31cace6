// A probe node that is healthy but slow to say so (a loaded machine, a node far away: a new TLS
// connection over a long link takes more than the 1 s /healthz timeout). Beside quick nodes it may be
// skipped for a while; but when no node answered in time, the client looks again with more patience
// before it says no node is live: a fleet of such nodes verifies instead of failing every call.
// A real daemon behind a relay whose /healthz answers late; depth syntax (no DNS, no SMTP).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import type { VerificationResult } from '../../probe/contract';
import { startProbeDaemon, type ProbeDaemon } from '../../probe/daemon/server';
import { closedPort } from '../../probe/testing/fake-smtp';
import { collect, listenLocal, type LocalServer } from './fake-nodes';

const TOKEN = 'slow-health-token';
const HEALTH_DELAY_MS = 700;

let daemon: ProbeDaemon;
beforeAll(async () => {
  daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN });
});
afterAll(async () => daemon?.close());

/** /healthz answered after `delayMs`; /v1/verify passed to the daemon as it is. */
function startSlowHealthNode(upstream: string, delayMs: number): Promise<LocalServer> {
  return listenLocal((req, res) => {
    if (req.url === '/healthz') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs);
      return;
    }
    const target = new URL(upstream);
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
}

describe('a node slower to answer /healthz than its timeout', () => {
  it('is used when no node answers in time: the call verifies instead of failing "no probe daemon"', { timeout: 30_000 }, async () => {
    const slow = await startSlowHealthNode(daemon.url, HEALTH_DELAY_MS);
    try {
      const client = new ProbeClient({ urls: [slow.url], token: TOKEN, retry: { rounds: 1 }, fleet: { healthTimeoutMs: 300 } });
      const emails = ['a@x.slow.test', 'b@y.slow.test'];
      const results = await collect(client.verify(emails, { depth: 'syntax' }));
      expect(results.map((r) => r.email).sort()).toEqual(emails);
      expect(client.stats.answered[slow.url]).toBe(2);
    } finally {
      await slow.close();
    }
  });

  it('every node down still fails the call with a clear reason, not a hang and not a verdict', { timeout: 30_000 }, async () => {
    const urls = [`http://127.0.0.1:${await closedPort()}`, `http://127.0.0.1:${await closedPort()}`];
    const client = new ProbeClient({ urls, token: TOKEN, retry: { backoffMs: 10 }, fleet: { healthTimeoutMs: 300 } });
    const got: VerificationResult[] = [];
    const failure = await (async () => {
      for await (const r of client.verify(['a@x.slow.test'], { depth: 'syntax' })) got.push(r);
    })().then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(got).toEqual([]);
    expect(failure?.message).toBe(`no probe daemon could verify 1 address(es) (tried ${urls.join(', ')})`);
  });
});
