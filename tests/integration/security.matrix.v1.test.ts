// The security matrix, /v1: every route (the matrix's world, callers and statuses: tests/helpers/security-matrix.ts).
import { describe, expect, it } from 'vitest';
import { v1Router } from '../../server/rest/v1.router';
import { v1RouteScopes } from '../../server/rest/openapi';
import { API_SCOPES } from '../../server/contracts/api-keys';
import { A, B, exMember, fx, leaks, securityMatrixWorld, snapshotA, ts } from '../helpers/security-matrix';

securityMatrixWorld();

// ---- every /v1 route (API keys: A's key, B's key, none) ------------------------------------
// `unscoped`: A's key holding every scope but the one the route declares (403 SCOPE_REQUIRED).
type V1Caller = 'anonymous' | 'revoked' | 'unscoped' | 'owner' | 'foreign';
/** `exMember`: the key an admin of A made before being removed: revoked with the removal. */
type V1Walker = V1Caller | 'exMember';
interface V1Entry {
  request: () => Promise<{ method: string; path: string; body?: unknown }>;
  expect: Record<V1Caller, number>;
}
const v1Everyone = (s = 200): Record<V1Caller, number> => ({ anonymous: 401, revoked: 401, unscoped: 403, owner: s, foreign: s });
const V1: Record<string, V1Entry> = {
  'POST /validate': { request: async () => ({ method: 'POST', path: '/v1/validate', body: { email: 'matrix@example.com' } }), expect: v1Everyone(503) }, // no probe daemon here: every gate passed (an address only a probe can answer)
  'POST /bulk': { request: async () => ({ method: 'POST', path: '/v1/bulk', body: { emails: ['matrix@example.com'] } }), expect: v1Everyone() },
  'POST /bulk-validate': { request: async () => ({ method: 'POST', path: '/v1/bulk-validate', body: { emails: ['matrix@example.com'] } }), expect: v1Everyone() },
  'GET /jobs/{id}': { request: async () => ({ method: 'GET', path: `/v1/jobs/${await fx.job()}` }), expect: { anonymous: 401, revoked: 401, unscoped: 403, owner: 200, foreign: 404 } },
  'GET /jobs': { request: async () => ({ method: 'GET', path: '/v1/jobs' }), expect: v1Everyone() },
  'POST /jobs/{id}/cancel': { request: async () => ({ method: 'POST', path: `/v1/jobs/${await fx.runningJob()}/cancel` }), expect: { anonymous: 401, revoked: 401, unscoped: 403, owner: 200, foreign: 404 } },
  'POST /estimate': { request: async () => ({ method: 'POST', path: '/v1/estimate', body: { emails: ['matrix@example.com'] } }), expect: v1Everyone(503) }, // no probe daemon here: every gate passed
  'GET /jobs/{id}/results': { request: async () => ({ method: 'GET', path: `/v1/jobs/${await fx.job()}/results` }), expect: { anonymous: 401, revoked: 401, unscoped: 403, owner: 200, foreign: 404 } },
  'GET /account': { request: async () => ({ method: 'GET', path: '/v1/account' }), expect: v1Everyone() }, // each key sees its own account
};

describe('security matrix: /v1', () => {
  it('has an entry for every /v1 route (and none for what is gone)', () => {
    const v1 = Object.values((v1Router as unknown as { _def: { procedures: Record<string, { _def: { meta?: { openapi?: { method: string; path: string } } } }> } })._def.procedures)
      .map((p) => p._def.meta?.openapi)
      .filter((o): o is { method: string; path: string } => !!o)
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(Object.keys(V1).sort(), '/v1 routes without an entry').toEqual(v1);
  });

  it('walks every /v1 route with no key, a revoked key, a removed admin\'s key, A\'s key and B\'s key (aimed at A\'s jobs)', { timeout: 60_000 }, async () => {
    const keyA = (await A.owner.client.trpcMutation('apiKeys.create', { name: 'matrix v1 A' })).body.result.data.api_key as string;
    const keyB = (await B.client.trpcMutation('apiKeys.create', { name: 'matrix v1 B' })).body.result.data.api_key as string;
    const revoked = await A.owner.client.trpcMutation('apiKeys.create', { name: 'matrix revoked' });
    await A.owner.client.trpcMutation('apiKeys.revoke', { id: revoked.body.result.data.id });
    const scopeOf = new Map(v1RouteScopes().map((r) => [`${r.method} ${r.path}`, r.scope!]));
    const withoutScope = new Map<string, string>();
    for (const scope of API_SCOPES) {
      const k = await A.owner.client.trpcMutation('apiKeys.create', { name: `matrix without ${scope}`, scopes: API_SCOPES.filter((s) => s !== scope) });
      withoutScope.set(scope, k.body.result.data.api_key as string);
    }
    const keys: Record<Exclude<V1Walker, 'unscoped'>, string | null> = { anonymous: null, revoked: revoked.body.result.data.api_key, owner: keyA, foreign: keyB, exMember: exMember.apiKey };
    const before = await snapshotA();
    const failures: string[] = [];
    for (const who of ['anonymous', 'revoked', 'exMember', 'unscoped', 'foreign', 'owner'] as V1Walker[]) {
      for (const [route, entry] of Object.entries(V1)) {
        const key = who === 'unscoped' ? withoutScope.get(scopeOf.get(route)!)! : keys[who];
        const r = await entry.request();
        const want = entry.expect[who === 'exMember' ? 'revoked' : who];
        // Each route in its own second: the plan's per-second rate is not what this walks. A call
        // refused at the key or scope gate (401, 403) never reaches the rate gate, so only the others wait.
        if (want !== 401 && want !== 403) await new Promise((res) => setTimeout(res, 120));
        const res = await fetch(`${ts.url}${r.path}`, {
          method: r.method,
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), cookie: [...A.owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        const text = await res.text();
        if (res.status === 429) {
          await new Promise((w) => setTimeout(w, 1100));
          failures.push(`${who} ${route}: rate-limited; the walk is too fast`);
          continue;
        }
        if (res.status !== want) failures.push(`${who} ${route}: ${res.status} (expected ${want}) ${text.slice(0, 160)}`);
        if (who !== 'owner' && leaks(text).length) failures.push(`${who} ${route} read A's rows: ${leaks(text).join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    // The session cookie of A's owner never stood in for a key, and B changed none of A's rows.
    const was = JSON.parse(before) as { jobs: unknown[]; keys: unknown[] };
    const after = JSON.parse(await snapshotA()) as { jobs: unknown[]; keys: unknown[] };
    expect(after.keys).toEqual(was.keys);
  });
});
