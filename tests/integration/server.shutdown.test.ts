// A web process told to stop (SIGTERM on a deploy, Ctrl+C) finishes the requests it is answering
// before it closes: it stops taking new connections at once, but a caller whose request is already
// in flight gets its answer, not a reset connection.
import http from 'node:http';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** A geolocation service (GEO_URL) that holds every request until the test lets it answer. */
async function startHeldGeo() {
  const held: Array<() => void> = [];
  let arrived!: () => void;
  const firstArrival = new Promise<void>((r) => (arrived = r));
  const server = http.createServer((_req, res) => {
    held.push(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ country_code: 'IN' }));
    });
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/{ip}/json`,
    firstArrival,
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let geo: Awaited<ReturnType<typeof startHeldGeo>> | null = null;
let ts: TestServer | null = null;
let stopping: Promise<void> | null = null;
afterEach(async () => {
  geo?.release();
  await (stopping ?? ts?.server.stop());
  await ts?.testDb.close();
  stopping = null;
  await geo?.close();
  ts = null;
  geo = null;
});

describe('stopping the web server', () => {
  it('lets a request already in flight finish with its answer, and takes no new connection meanwhile', async () => {
    geo = await startHeldGeo();
    ts = await startTestServer({ env: { GEO_URL: geo.url, DEV_TOOLS: 'true' } });
    const url = ts.url;
    // GET /api/public-config asks GEO_URL (held) before it answers: a request in flight.
    const inFlight = fetch(`${url}/api/public-config`).then(
      async (r) => ({ status: r.status, body: (await r.json()) as { currency?: string } }),
      (err: Error) => ({ status: 0, body: { error: String(err.cause ?? err.message) } }),
    );
    await geo.firstArrival;
    stopping = ts.server.stop();
    // Stopped listening: a new connection is refused while the old request is still being answered.
    await expect.poll(async () => fetch(`${url}/healthz`).then((r) => r.status, () => 'refused'), { timeout: 5_000 }).toBe('refused');
    geo.release();
    expect(await inFlight).toEqual({ status: 200, body: { currency: 'INR', geoUrl: geo.url } });
    await stopping;
  });
});

describe('GET /healthz', () => {
  it('answers 503 while the database cannot be reached, so a balancer routes around the process, and 200 again once it can', async () => {
    ts = await startTestServer();
    const health = async () => {
      const r = await fetch(`${ts!.url}/healthz`);
      return { status: r.status, body: (await r.json()) as unknown };
    };
    expect(await health()).toEqual({ status: 200, body: { ok: true } });
    const name = new URL(ts.testDb.url).pathname.slice(1);
    const admin = new pg.Client(inject('pgAdminUrl'));
    await admin.connect();
    try {
      // The database refuses new connections and drops the ones it has (a failover, a lost network).
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      await expect.poll(health, { timeout: 10_000 }).toEqual({ status: 503, body: { ok: false, database: 'unreachable' } });
    } finally {
      await admin.query(`alter database ${name} allow_connections true`);
      await admin.end();
    }
    await expect.poll(health, { timeout: 10_000 }).toEqual({ status: 200, body: { ok: true } });
  });
});
