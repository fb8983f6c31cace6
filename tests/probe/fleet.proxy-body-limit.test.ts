// A probe node behind a proxy with a request body limit (nginx's client_max_body_size is 1 MB unless
// set): a request of many addresses is answered 413 by the proxy, never by the daemon (it takes 64 MB,
// more than the contract's biggest request). The client sends that node smaller requests instead of
// failing the call: every address answered once.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../../probe/client/probe-client';
import { startProbeDaemon, type ProbeDaemon } from '../../probe/daemon/server';
import { collect, listenLocal, type LocalServer } from './fake-nodes';

const TOKEN = 'limit-token';
const LIMIT_BYTES = 4_096;

let daemon: ProbeDaemon;
let proxy: LocalServer;
let refused = 0;
beforeAll(async () => {
  daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { dnsServers: ['127.0.0.1:1'] } });
  proxy = await listenLocal((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length > LIMIT_BYTES) {
        refused++;
        return void res.writeHead(413, { 'content-type': 'text/html' }).end('<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>');
      }
      const up = http.request(`${daemon.url}${req.url ?? '/'}`, { method: req.method, headers: { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? '' } }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
});
afterAll(async () => {
  await proxy?.close();
  await daemon?.close();
});

describe('ProbeClient with a node behind a proxy that limits request bodies', () => {
  it('sends smaller requests after a 413 instead of failing the call: every address answered once', { timeout: 30_000 }, async () => {
    const emails = Array.from({ length: 600 }, (_, i) => `person.number${i}@d${i % 7}.example.com`);
    expect(JSON.stringify({ emails }).length).toBeGreaterThan(4 * LIMIT_BYTES);
    const client = new ProbeClient({ urls: [proxy.url], token: TOKEN, retry: { backoffMs: 10 } });
    const results = await collect(client.verify(emails, { depth: 'syntax' }));
    expect(results.map((r) => r.email).sort()).toEqual([...emails].sort());
    expect(refused).toBeGreaterThan(0);
  });

  it('still fails, saying so, when a request of one address is refused for its size', { timeout: 30_000 }, async () => {
    // 1,000 control characters: six bytes each in JSON, over the proxy's limit on their own.
    const email = `${'\u0001'.repeat(1_000)}@example.com`;
    const client = new ProbeClient({ urls: [proxy.url], token: TOKEN, retry: { backoffMs: 10 } });
    await expect(collect(client.verify([email], { depth: 'syntax' }))).rejects.toThrow(/413/);
  });
});
