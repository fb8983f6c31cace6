// PROBE_URLS nodes that are healthy on /healthz but whose /v1/verify fails: a 500, a stream of lines
// that are no results, a stream that lies (results for addresses it was not asked about, the same
// address twice). Their work goes to the daemons that answer; nothing they say is believed twice or
// for an address not asked; when no node answers, the call fails saying what the nodes answered
// (a self-hoster's CLI shows that line). Real HTTP servers and a real daemon on 127.0.0.1; depth
// syntax (no DNS, no SMTP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import type { VerificationResult } from '../../probe/contract';
import { startProbeDaemon, type ProbeDaemon } from '../../probe/daemon/server';
import { collect, startFakeNode, type Answer } from './fake-nodes';

const TOKEN = 'failing-token';
let daemon: ProbeDaemon;
beforeAll(async () => {
  daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN });
});
afterAll(async () => daemon?.close());

const internalError: Answer = (_body, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal error"}');
const garbage: Answer = (_body, res) => void res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end('{"hello":"world"}\n');

async function failureOf(it: AsyncIterable<VerificationResult>): Promise<Error | null> {
  return collect(it).then(
    () => null,
    (err: unknown) => err as Error,
  );
}

const emails = Array.from({ length: 30 }, (_, i) => `user@d${i}.failing.test`);

describe('a node healthy on /healthz whose verify fails', () => {
  it.each([
    ['answers 500', internalError],
    ['streams lines that are no results', garbage],
  ])('%s: its work goes to the daemon, every address once, the node asked once', { timeout: 30_000 }, async (_what, answer) => {
    const node = await startFakeNode(answer);
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const client = new ProbeClient({ urls: [node.url, daemon.url], token: TOKEN, retry: { backoffMs: 10 } });
      const results = await collect(client.verify(emails, { depth: 'syntax' }));
      expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
      expect(node.posts).toBe(1);
      expect(client.stats.answered[daemon.url]).toBe(emails.length);
    } finally {
      console.warn = warn;
      await node.close();
    }
  });

  it.each([
    ['answers 500', internalError, /answered 500: internal error/],
    ['streams lines that are no results', garbage, /answered a line that is not a verification result/],
  ])('when it is the only node and %s, the call fails saying what it answered (no verdict)', { timeout: 30_000 }, async (_what, answer, said) => {
    const node = await startFakeNode(answer);
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const client = new ProbeClient({ urls: [node.url], token: TOKEN, retry: { backoffMs: 10, cooldownMs: 10 } });
      const failure = await failureOf(client.verify(emails.slice(0, 3), { depth: 'syntax' }));
      expect(failure?.message).toMatch(/probe daemons failed 4 times on the same addresses/);
      expect(failure?.message).toContain(node.url);
      expect(failure?.message).toMatch(said);
    } finally {
      console.warn = warn;
      await node.close();
    }
  });

  it('a node that answers addresses it was not asked about and the same address twice is believed once per address asked', { timeout: 30_000 }, async () => {
    // Relays the daemon's results, each line twice, after a result for a stranger.
    const liar = await startFakeNode(async (body, res) => {
      const up = await fetch(`${daemon.url}/v1/verify`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
      const lines = (await up.text()).split('\n').filter(Boolean);
      const stranger = { ...(JSON.parse(lines[0]!) as Record<string, unknown>), email: 'stranger@elsewhere.test' };
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`${JSON.stringify(stranger)}\n${lines.flatMap((l) => [l, l]).join('\n')}\n`);
    });
    try {
      const client = new ProbeClient({ urls: [liar.url], token: TOKEN });
      const results = await collect(client.verify(emails, { depth: 'syntax' }));
      expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
      expect(client.stats.answered[liar.url]).toBe(emails.length);
      expect(client.stats.replanned).toBe(0);
    } finally {
      await liar.close();
    }
  });
});
