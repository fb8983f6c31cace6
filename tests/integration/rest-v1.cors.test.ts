// The public API is callable from a web page on any origin with an API key (bearer only, never a
// cookie), as the documentation's JavaScript examples do; the dashboard's own API is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let key = '';
const origin = 'https://shop.example';
beforeAll(async () => {
  ts = await startTestServer();
  const owner = await ownerOn(ts, 'starter', 'cors');
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'web page' })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
});

describe('/v1 from another origin', () => {
  it('answers a preflight for a POST with a key and an Idempotency-Key', async () => {
    const res = await fetch(`${ts.url}/v1/validate`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
  });

  it('lets the page read answers (the direct validate path, other routes, refusals) and the headers it needs', async () => {
    const validate = await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { origin, authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'not-an-address' }) });
    expect(validate.status).toBe(200);
    expect(validate.headers.get('access-control-allow-origin')).toBe('*');
    expect(validate.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    const account = await fetch(`${ts.url}/v1/account`, { headers: { origin, authorization: `Bearer ${key}` } });
    expect(account.status).toBe(200);
    expect(account.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await fetch(`${ts.url}/v1/account`, { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers OPTIONS with the methods each path takes (Allow), and a plain OPTIONS on an unknown path with 404', async () => {
    for (const [path, allow] of [
      ['/validate', 'POST, OPTIONS'],
      ['/jobs/00000000-0000-4000-8000-000000000000', 'GET, HEAD, OPTIONS'],
      ['/jobs/00000000-0000-4000-8000-000000000000/cancel/', 'POST, OPTIONS'],
      ['/openapi.json', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const plain = await fetch(`${ts.url}/v1${path}`, { method: 'OPTIONS' });
      expect(plain.status, path).toBe(204);
      expect(plain.headers.get('allow'), path).toBe(allow);
      const preflight = await fetch(`${ts.url}/v1${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': allow.split(', ')[0]! } });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('allow'), path).toBe(allow);
    }
    const unknown = await fetch(`${ts.url}/v1/no-such-route`, { method: 'OPTIONS' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // A preflight is answered whatever the path (the request that follows gets the 404).
    expect((await fetch(`${ts.url}/v1/no-such-route`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } })).status).toBe(204);
  });

  it("the dashboard's cookie API grants no other origin anything", async () => {
    const res = await fetch(`${ts.url}/api/trpc/account.me`, { headers: { origin } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${ts.url}/api/trpc/account.me`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });
});
