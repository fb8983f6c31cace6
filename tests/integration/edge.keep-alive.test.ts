// Kept-alive connections outlive the clients' own idle limits. Node's agents (and Node's server
// default) drop an idle connection after 5 s: when the server closed first, a client that sent its
// next request at that moment got ECONNRESET (seen in CI as a Playwright request failing with
// "read ECONNRESET"). The server now keeps an idle connection 65 s and says so in Keep-Alive.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { testServer } from '../helpers/test-server';

const ts = testServer();

/** GET `path` on `agent`; resolves with the status, the Keep-Alive header and the local port of the socket used. */
function get(agent: http.Agent, path: string): Promise<{ status: number; keepAlive: string | undefined; port: number }> {
  const u = new URL(path, ts.url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: u.hostname, port: u.port, path: u.pathname, agent }, (res) => {
        const port = res.socket.localPort ?? 0;
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, keepAlive: res.headers['keep-alive']?.toString(), port }));
      })
      .on('error', reject);
  });
}

describe('kept-alive connections', () => {
  it('stay open past the clients’ 5-second idle limit, and the answer says how long', { timeout: 30_000 }, async () => {
    const agent = new http.Agent({ keepAlive: true, timeout: 60_000 });
    try {
      const first = await get(agent, '/api/public-config');
      expect(first.status).toBe(200);
      expect(first.keepAlive).toBe('timeout=65');
      await new Promise((r) => setTimeout(r, 5_500));
      const second = await get(agent, '/api/public-config');
      expect(second.status).toBe(200);
      expect(second.port).toBe(first.port); // the same connection: the server had not closed it
    } finally {
      agent.destroy();
    }
  });
});
