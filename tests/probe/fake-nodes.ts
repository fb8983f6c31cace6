// Scaffolding shared by the fleet tests (fleet.*, cli.edge): HTTP servers on 127.0.0.1 standing in for
// probe nodes (healthy on /healthz, odd on /v1/verify), and the results of a ProbeClient call collected.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VerificationResult } from '../../probe/contract';

export interface LocalServer {
  url: string;
  server: http.Server;
  /** Cuts every open connection (a stream left hanging too), then stops listening. */
  close(): Promise<void>;
}

/** An HTTP server answering with `handler` on a free port of 127.0.0.1. */
export async function listenLocal(handler: http.RequestListener): Promise<LocalServer> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Every result of a call, in the order they came; rejects as the call does. */
export async function collect(it: AsyncIterable<VerificationResult>): Promise<VerificationResult[]> {
  const out: VerificationResult[] = [];
  for await (const r of it) out.push(r);
  return out;
}

export type Answer = (body: Buffer, res: http.ServerResponse) => void | Promise<void>;

export interface FakeNode extends LocalServer {
  /** Requests other than GET /healthz. */
  readonly posts: number;
}

/**
 * Healthy on GET /healthz (answering `health`); every other request is counted in `posts` and, once its
 * body is in, answered by `answer` (a rejection destroys the response).
 */
export async function startFakeNode(answer: Answer, health = '{"ok":true}'): Promise<FakeNode> {
  const state = { posts: 0 };
  const local = await listenLocal((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end(health);
    state.posts++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void Promise.resolve(answer(Buffer.concat(chunks), res)).catch(() => res.destroy()));
  });
  return {
    ...local,
    get posts() {
      return state.posts;
    },
  };
}

/**
 * Healthy on /healthz; any other request is sent to the real daemon `upstream` as a POST /v1/verify, and
 * the first `relay` lines of its NDJSON stream are passed on. Then the upstream stream is dropped and
 * `afterRelay(res)` is called with the response left open: the node falls silent, unless `afterRelay`
 * keeps it talking.
 */
export async function startRelayNode(upstream: string, relay: number, afterRelay: (res: http.ServerResponse) => void): Promise<LocalServer> {
  return listenLocal((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const up = await fetch(`${upstream}/v1/verify`, { method: 'POST', headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
        res.writeHead(up.status, { 'content-type': 'application/x-ndjson' });
        res.flushHeaders();
        let buffer = '';
        let relayed = 0;
        const reader = up.body!.getReader();
        while (relayed < relay) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += Buffer.from(value).toString('utf8');
          let nl: number;
          while (relayed < relay && (nl = buffer.indexOf('\n')) >= 0) {
            res.write(buffer.slice(0, nl + 1));
            buffer = buffer.slice(nl + 1);
            relayed++;
          }
        }
        await reader.cancel().catch(() => undefined);
        afterRelay(res);
      })().catch(() => res.destroy());
    });
  });
}
