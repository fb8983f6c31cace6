// A webhook host whose DNS never answers costs the server nothing but the wait: its name is asked
// through c-ares (WEBHOOK_DNS_SERVERS, here a DNS server on 127.0.0.1 that swallows every question),
// not getaddrinfo, so the requests waiting on it hold none of libuv's four pool threads — which file
// access, password hashing and every dns.lookup of the process share — and each gives up on its own.
import { pbkdf2 } from 'node:crypto';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { ownerOn, type Person } from '../helpers/accounts';
import { insertFinishedJob } from '../helpers/jobs';
import { startSilentDns } from '../helpers/silent-dns';
import { startTestServer, type TestServer } from '../helpers/test-server';

let dns: Awaited<ReturnType<typeof startSilentDns>>;
let ts: TestServer;
let owner: Person;
let key = '';

beforeAll(async () => {
  dns = await startSilentDns();
  ts = await startTestServer({ env: { WEBHOOK_DNS_SERVERS: dns.address } });
  owner = await ownerOn(ts, 'pro', 'slow-dns');
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'sandbox', test: true })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
  await dns?.close();
});

describe('webhook hosts whose DNS never answers', () => {
  it('hold no thread of the pool while they wait, and are refused with a 400 that creates no job', { timeout: 60_000 }, async () => {
    const names = Array.from({ length: 6 }, (_, i) => `hang-${i}.webhook-dns.test`);
    const settled: boolean[] = names.map(() => false);
    const answers = names.map((name, i) =>
      fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev'], webhook_url: `https://${name}/hook` }) }).then(async (res) => {
        settled[i] = true;
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      }),
    );
    // Every request is waiting on the silent server …
    await expect.poll(() => names.every((n) => dns.asked.includes(n)), { timeout: 15_000 }).toBe(true);
    // … and more pool work than the pool has threads still gets done meanwhile.
    await Promise.all([...Array.from({ length: 8 }, () => promisify(pbkdf2)('password', 'salt', 1000, 32, 'sha256')), fs.readFile(new URL(import.meta.url))]);
    expect(settled.filter(Boolean)).toEqual([]);
    for (const a of await Promise.all(answers)) {
      expect(a.status).toBe(400);
      expect(String(a.body.detail)).toMatch(/could not be resolved/);
    }
    const jobs = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', owner.accountId).execute();
    expect(jobs).toEqual([]);
  });
});

describe('a delivery whose host DNS does not answer when it is sent', () => {
  // The URL passed the check when the job was submitted; at send time its DNS fails for a while (a
  // timeout, SERVFAIL): that is a network error like a refused connection, retried with the backoff —
  // not a final refusal after one try. An address that is not public stays a final refusal.
  it('is a failed attempt that is retried, ended only by the last attempt; a non-public address is refused at once', { timeout: 60_000 }, async () => {
    const db = ts.testDb.db;
    const deps = { db, auth: ts.server.deps.auth, env: ts.server.deps.env };
    const row = (id: string) => db.selectFrom('webhook_delivery').select(['status', 'attempts', 'last_error']).where('id', '=', id).executeTakeFirstOrThrow();

    const flaky = await insertFinishedJob(db, owner.accountId, { webhookUrl: 'https://flaky.webhook-dns.test/hook' });
    await enqueueWebhook(db, { jobId: flaky });
    await expect(deliverWebhook(deps, flaky, { number: 1, max: 10 })).rejects.toThrow(/could not be resolved/);
    expect(await row(flaky)).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringMatching(/could not be resolved/) });
    await expect(deliverWebhook(deps, flaky, { number: 10, max: 10 })).rejects.toThrow(/could not be resolved/);
    expect(await row(flaky)).toMatchObject({ status: 'failed', attempts: 10 });

    const internal = await insertFinishedJob(db, owner.accountId, { webhookUrl: 'https://10.0.0.1/hook' });
    await enqueueWebhook(db, { jobId: internal });
    expect(await deliverWebhook(deps, internal, { number: 1, max: 10 })).toMatchObject({ kind: 'refused' });
    expect(await row(internal)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
