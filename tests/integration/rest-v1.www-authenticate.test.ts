// A 401 must say how to authenticate (RFC 9110 §11.6.1: WWW-Authenticate, here the Bearer scheme of
// RFC 6750): HTTP clients that integrators generate or use (Android's HttpURLConnection: "No
// authentication challenges found") fail on a 401 without it before the body can be read. Every /v1
// 401 carries it, whichever door answered (the adapter, the direct validate route, the gates before a
// bulk body, HEAD); with error="invalid_token" when a key was sent but is unknown or revoked.
import { describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();

async function call(method: string, path: string, key: string | null, body?: unknown) {
  const res = await fetch(`${ts.url}/v1${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, challenge: res.headers.get('www-authenticate'), exposed: res.headers.get('access-control-expose-headers') ?? '' };
}

const REQUESTS: Array<[string, string, unknown?]> = [
  ['GET', '/account'],
  ['HEAD', '/jobs'],
  ['POST', '/validate', { email: 'a@example.com' }],
  ['POST', '/bulk', { emails: ['a@example.com'] }],
  ['POST', '/estimate', { emails: ['a@example.com'] }],
];

describe('401 on /v1', () => {
  it('carries a Bearer challenge: without error for a missing key, invalid_token for an unknown or revoked one', async () => {
    const owner = await ownerOn(ts, 'pro', 'challenge');
    const created = (await owner.client.trpcMutation('apiKeys.create', { name: 'to revoke' })).body.result.data;
    expect((await owner.client.trpcMutation('apiKeys.revoke', { id: created.id })).status).toBe(200);
    const unknown = `mv_live_${'A'.repeat(43)}`;

    for (const [method, path, body] of REQUESTS) {
      const missing = await call(method, path, null, body);
      expect(missing.status, `${method} ${path}`).toBe(401);
      expect(missing.challenge, `${method} ${path}`).toBe('Bearer realm="Mailvet API"');
      expect(missing.exposed).toContain('WWW-Authenticate');
      for (const key of [unknown, created.api_key as string, 'not-a-key']) {
        const refused = await call(method, path, key, body);
        expect(refused.status, `${method} ${path}`).toBe(401);
        expect(refused.challenge, `${method} ${path}`).toBe('Bearer realm="Mailvet API", error="invalid_token"');
      }
    }
    const live = (await owner.client.trpcMutation('apiKeys.create', { name: 'live' })).body.result.data.api_key as string;
    const ok = await call('GET', '/account', live);
    expect(ok.status).toBe(200);
    expect(ok.challenge).toBeNull();
  });
});
