// A webhook receiver on 127.0.0.1 for tests: answers with the scripted statuses, then 200, and keeps
// every request it got (path, headers, raw body, when it arrived). `script` is taken by any request;
// `scriptFor(path)` only by requests to that path, so another test's delivery still being retried in
// the background cannot take a status meant for this one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request had fully arrived. */
  receivedAt: number;
}

export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const script: number[] = [];
  const byPath = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() });
      res.statusCode = byPath.get(req.url ?? '')?.shift() ?? script.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    script,
    /** Statuses answered, in turn, to requests to `path` only (then the shared script, then 200). */
    scriptFor(path: string, ...statuses: number[]): void {
      byPath.set(path, [...(byPath.get(path) ?? []), ...statuses]);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
