// Idempotency-Key answers belong to the API key that sent them. The replay runs before the route's
// gates, so a key limited to the "account" scope must never replay another key's stored answer of a
// route it may not call, nor claim a key value first and block another key's request with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts?.stop();
});

describe('Idempotency-Key replays and key scopes', () => {
  it('a key without the validate scope gets 403 on POST /v1/validate, even with another key\'s Idempotency-Key', async () => {
    const owner = await ownerOn(ts, 'starter', 'idem-scope');
    const full = (await owner.client.trpcMutation('apiKeys.create', { name: 'server' })).body.result.data.api_key as string;
    const narrow = (await owner.client.trpcMutation('apiKeys.create', { name: 'billing dashboard', scopes: ['account'] })).body.result.data.api_key as string;
    const body = JSON.stringify({ email: 'not-an-address' }); // decided by syntax: no probe needed
    const post = (key: string, idem?: string) =>
      fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(idem ? { 'idempotency-key': idem } : {}) }, body });

    // The narrow key is refused on its own.
    const direct = await post(narrow);
    expect(direct.status).toBe(403);
    expect(((await direct.json()) as { code: string }).code).toBe('SCOPE_REQUIRED');

    // The full key validates with an Idempotency-Key (ids like "order-42" are what clients use).
    const first = await post(full, 'order-42');
    expect(first.status).toBe(200);
    const result = await first.text();

    // The narrow key, same Idempotency-Key and body: must still be refused for its scope.
    const replay = await post(narrow, 'order-42');
    const text = await replay.text();
    expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed') }, `narrow key got: ${text} (first answer: ${result})`).toEqual({ status: 403, replayed: null });
  });

  it("a narrow key that used a key value first does not block the full key's request with it", async () => {
    const owner = await ownerOn(ts, 'starter', 'idem-block');
    const full = (await owner.client.trpcMutation('apiKeys.create', { name: 'server' })).body.result.data.api_key as string;
    const narrow = (await owner.client.trpcMutation('apiKeys.create', { name: 'reporting', scopes: ['account'] })).body.result.data.api_key as string;
    const post = (key: string) =>
      fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'order-7' }, body: JSON.stringify({ email: 'not-an-address' }) });
    expect((await post(narrow)).status).toBe(403);
    const res = await post(full);
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    // …and the full key's own retry is still a replay.
    const again = await post(full);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
