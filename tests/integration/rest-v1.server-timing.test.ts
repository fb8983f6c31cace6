// Every /v1 answer reports its fixed costs in Server-Timing (server/lib/server-timing.ts), which
// `npm run bench:api` reads: the key check and the rate limit on every authenticated call, the
// credit reservation, probe and store on a check; nothing on an unauthenticated refusal but the key check.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseServerTiming } from '../../server/lib/server-timing';
import { ownerOn } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let key: string;
beforeAll(async () => {
  ts = await startTestServer();
  const p = await ownerOn(ts, 'business', 'timing');
  const created = await p.client.trpcMutation('apiKeys.create', { name: 't', test: true });
  key = created.body.result.data.api_key;
}, 120_000);
afterAll(async () => ts?.stop());

it('reports auth and rate on an authenticated call, auth alone on a refused key', async () => {
  const ok = await fetch(`${ts.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  expect(ok.status).toBe(200);
  const t = parseServerTiming(ok.headers.get('server-timing'));
  expect(Object.keys(t).sort()).toEqual(['auth', 'rate']);
  for (const v of Object.values(t)) expect(v).toBeGreaterThanOrEqual(0);

  const refused = await fetch(`${ts.url}/v1/account`, { headers: { authorization: 'Bearer mv_live_nope' } });
  expect(refused.status).toBe(401);
  expect(Object.keys(parseServerTiming(refused.headers.get('server-timing')))).toEqual(['auth']);
});
