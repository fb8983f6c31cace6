// A PROBE_URLS entry that reaches something other than a probe daemon's /v1/verify — a path in the
// URL, a proxy that redirects to https or routes only GET, a web server on the port — answers with a
// redirect, 404 or 405, or a 200 page that is no result stream. That node is left out of the call
// (its work goes to the daemons, every address answered once) and the reason is logged once; a 400
// (the request itself is wrong: no node would take it) still fails the call. Real HTTP servers on
// 127.0.0.1; depth syntax (no DNS, no SMTP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient, ProbeRequestError } from '../../probe/client/probe-client';
import { probeOrder } from '../../probe/client/pick-probe';
import { startProbeDaemon } from '../../probe/daemon/server';
import { collect, startFakeNode, type FakeNode } from './fake-nodes';

const TOKEN = 'misrouted-token';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Healthy on /healthz (as a proxy passing GETs through may be); every POST gets `answer`. */
function startOddNode(answer: Answer): Promise<FakeNode> {
  return startFakeNode((_body, res) => void res.writeHead(answer.status, answer.headers).end(answer.body));
}

let daemon: { url: string; close(): Promise<void> };
beforeAll(async () => {
  daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN });
});
afterAll(async () => daemon?.close());

const emails = Array.from({ length: 20 }, (_, i) => `alice@d${i}.misrouted.test`);
const html = { 'content-type': 'text/html; charset=utf-8' };

describe('a PROBE_URLS node that is not a probe daemon', () => {
  it.each<[string, Answer, RegExp]>([
    ['301 (a proxy sending http to https)', { status: 301, headers: { ...html, location: 'https://probe.example/v1/verify' }, body: '<html>Moved</html>' }, /answered 301 .*https:\/\/probe\.example\/v1\/verify/],
    ['302 (a sign-in page in front of it)', { status: 302, headers: { ...html, location: '/login' }, body: '' }, /answered 302/],
    ['404 (a path in the URL, another service on the port)', { status: 404, headers: html, body: '<html>Not Found</html>' }, /answered 404/],
    ['405 (a proxy that routes only GET)', { status: 405, headers: { ...html, allow: 'GET, HEAD' }, body: '<html>Method Not Allowed</html>' }, /answered 405/],
    ['200 with a web page, not a result stream', { status: 200, headers: html, body: '<!doctype html><html><body>Welcome to nginx!</body></html>' }, /answered 200 text\/html/],
  ])('answering %s: its work goes to the daemon, every address answered once, the reason logged once', { timeout: 30_000 }, async (_what, answer, reason) => {
    const odd = await startOddNode(answer);
    try {
      const urls = [odd.url, daemon.url];
      expect(emails.some((e) => probeOrder(e.split('@')[1]!, urls)[0] === odd.url)).toBe(true);
      const client = new ProbeClient({ urls, token: TOKEN, retry: { backoffMs: 10 } });
      for (let call = 0; call < 2; call++) {
        const out = await collect(client.verify(emails, { depth: 'syntax' }));
        expect(out.map((r) => r.email).sort()).toEqual([...emails].sort());
      }
      expect(odd.posts).toBe(1); // left out after its first answer (the second call too: it is down for the cooldown)
      expect(client.stats.answered[odd.url] ?? 0).toBe(0);
      const said = client.stats.warnings.filter((w) => w.includes(odd.url));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(reason);
      expect(said[0]).toContain('not a probe daemon');
      expect(said[0]).toContain('its work goes to the other probe nodes');
    } finally {
      await odd.close();
    }
  });

  it('when no node is a probe daemon, the call fails saying so (not "no probe daemon is live")', { timeout: 30_000 }, async () => {
    const odd = await startOddNode({ status: 404, headers: html, body: 'Not Found' });
    try {
      const client = new ProbeClient({ urls: [odd.url], token: TOKEN, retry: { backoffMs: 10 } });
      await expect(collect(client.verify(emails, { depth: 'syntax' }))).rejects.toThrow(/answered 404 to POST \/v1\/verify: not a probe daemon/);
    } finally {
      await odd.close();
    }
  });

  it('a 400 (the request itself is wrong) still fails the call at once, not handed to the other nodes', { timeout: 30_000 }, async () => {
    const odd = await startOddNode({ status: 400, headers: { 'content-type': 'application/json' }, body: '{"error":"emails must be an array"}' });
    try {
      const urls = [odd.url, daemon.url];
      const client = new ProbeClient({ urls, token: TOKEN, retry: { backoffMs: 10 } });
      const failure = await collect(client.verify(emails, { depth: 'syntax' })).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(ProbeRequestError);
      expect((failure as ProbeRequestError).status).toBe(400);
      expect((failure as Error).message).toContain('emails must be an array');
    } finally {
      await odd.close();
    }
  });
});
