// Job-completion webhooks: signed with the account's secret, retried with backoff until the
// receiver takes them, never sent twice, and never to private addresses unless allowed.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { guardedLookup } from '../../server/features/webhooks/webhook-url';
import { signWebhookBody, verifyWebhookSignature, verifyWebhookV2, WEBHOOK_TOLERANCE_SECONDS } from '../../server/features/webhooks/webhook-signing';
import { deliverJobWebhook } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { fileFixture } from '../helpers/file-fixture';
import { insertFinishedJob } from '../helpers/jobs';
import { probeStack } from '../helpers/probe-stack';
import { signUpVerified, type Browserless } from '../helpers/test-server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';
import { buildScenarios } from '../mailworld/index';

const stack = probeStack({ token: 'webhooks-probe-token', domains: buildScenarios().filter((d) => d.domain.startsWith('normal.')), role: 'all', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const receiver = fileFixture(startWebhookReceiver, (r) => r.close());

let n = 0;
async function customer(): Promise<{ c: Browserless; accountId: string; key: string; secret: string }> {
  n += 1;
  const c = await signUpVerified(stack.ts, { email: `hooks-${n}@example.com` });
  const accountId = (await c.trpcQuery('account.me')).body.result.data.accountId as string;
  await stack.ts.testDb.db.updateTable('account').set({ plan: 'pro' }).where('id', '=', accountId).execute();
  const key = (await c.trpcMutation('apiKeys.create', { name: 'hooks' })).body.result.data.api_key as string;
  const secret = (await c.trpcQuery('apiKeys.webhookSecret')).body.result.data.secret as string;
  return { c, accountId, key, secret };
}

const finishedJob = (accountId: string, webhookUrl: string | null, status: 'completed' | 'failed' = 'completed') => insertFinishedJob(stack.ts.testDb.db, accountId, { webhookUrl, status });

const forPath = (path: string) => receiver.received.filter((r) => r.path === path);

describe('job-completion webhooks', () => {
  it('signs the raw body with the account secret and retries with backoff until a 2xx', { timeout: 40_000 }, async () => {
    const { accountId, secret } = await customer();
    const path = '/hooks/retry';
    const jobId = await finishedJob(accountId, `${receiver.url}${path}`);
    receiver.script.push(500, 503);
    await enqueueWebhook(stack.ts.testDb.db, { jobId });

    await expect.poll(() => forPath(path).length, { timeout: 35_000, interval: 250 }).toBe(3);
    const [first, second, third] = forPath(path);
    expect(first!.body).toBe(third!.body);
    expect(second!.body).toBe(third!.body);
    expect(JSON.parse(third!.body)).toEqual({
      event: 'job.completed',
      job_id: jobId,
      status: 'completed',
      total_emails: 3,
      processed_emails: 3,
      test: false,
      created_at: expect.any(String),
      completed_at: expect.any(String),
    });
    for (const r of [first!, second!, third!]) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-mailvet-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(secret, r.body, r.headers['x-mailvet-signature'] as string)).toBe(true);
      expect(verifyWebhookSignature(secret, `${r.body} `, r.headers['x-mailvet-signature'] as string)).toBe(false);
      expect(r.headers['x-mailvet-delivery']).toBe(jobId);
    }
    expect([first, second, third].map((r) => r!.headers['x-mailvet-attempt'])).toEqual(['1', '2', '3']);
    // The original header is exactly what it always was: sha256=HMAC(secret, raw body), nothing else.
    expect(third!.headers['x-mailvet-signature']).toBe(signWebhookBody(secret, third!.body));

    // The timestamped signature: t (= X-Mailvet-Timestamp, unix seconds) and v1 = HMAC(secret, "t.delivery.body").
    let previous = first!.receivedAt;
    for (const r of [first!, second!, third!]) {
      const ts = r.headers['x-mailvet-timestamp'] as string;
      expect(ts).toMatch(/^\d{10}$/);
      const v2 = r.headers['x-mailvet-signature-v2'] as string;
      // The documented form, computed here by hand as a receiver would.
      expect(v2).toBe(`t=${ts},v1=${createHmac('sha256', secret).update(`${ts}.${jobId}.${r.body}`).digest('hex')}`);
      // Each attempt is signed at its own time: after the previous attempt arrived, before this one did.
      if (r !== first) expect(Number(ts)).toBeGreaterThanOrEqual(Math.floor(previous / 1000));
      expect(Number(ts)).toBeLessThanOrEqual(Math.ceil(r.receivedAt / 1000));
      previous = r.receivedAt;
      const now = Number(ts);
      const check = (o: { body?: string; delivery?: string; header?: string; nowSeconds?: number; key?: string }) =>
        verifyWebhookV2(o.key ?? secret, { rawBody: o.body ?? r.body, deliveryId: o.delivery ?? (r.headers['x-mailvet-delivery'] as string), header: o.header ?? v2, nowSeconds: o.nowSeconds ?? now });
      expect(check({})).toBe(true);
      expect(check({ nowSeconds: now + WEBHOOK_TOLERANCE_SECONDS })).toBe(true);
      // Tampered: the body, the delivery id, the timestamp, the key — or replayed too late (or too early).
      expect(check({ body: `${r.body} ` })).toBe(false);
      expect(check({ delivery: '00000000-0000-4000-8000-000000000000' })).toBe(false);
      expect(check({ header: v2.replace(`t=${ts}`, `t=${now + 1}`), nowSeconds: now + 1 })).toBe(false);
      expect(check({ key: `${secret}x` })).toBe(false);
      expect(check({ nowSeconds: now + WEBHOOK_TOLERANCE_SECONDS + 1 })).toBe(false);
      expect(check({ nowSeconds: now - WEBHOOK_TOLERANCE_SECONDS - 1 })).toBe(false);
    }
    expect(Number(third!.headers['x-mailvet-timestamp'])).toBeGreaterThan(Number(first!.headers['x-mailvet-timestamp']));

    await expect
      .poll(async () => (await stack.ts.testDb.db.selectFrom('audit_log').select('action').where('target_id', '=', jobId).where('action', '=', 'webhook.delivered').execute()).length)
      .toBe(1);

    // Queued again (a retried finalize): the delivered webhook is not sent twice. Once nothing of this
    // job's deliveries is left in the worker's queue (whatever was queued has run), the receiver still has three.
    await enqueueWebhook(stack.ts.testDb.db, { jobId });
    const queued = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs
          where key in (select 'webhook-deliver:' || id from webhook_delivery where job_id = ${jobId})`.execute(stack.ts.testDb.db)
      ).rows[0]!.n;
    await expect.poll(queued, { timeout: 10_000 }).toBe(0);
    expect(forPath(path)).toHaveLength(3);
  });

  it('reports a failed job as job.failed', { timeout: 20_000 }, async () => {
    const { accountId } = await customer();
    const path = '/hooks/failed';
    const jobId = await finishedJob(accountId, `${receiver.url}${path}`, 'failed');
    await enqueueWebhook(stack.ts.testDb.db, { jobId });
    await expect.poll(() => forPath(path).length, { timeout: 15_000 }).toBe(1);
    expect(JSON.parse(forPath(path)[0]!.body)).toMatchObject({ event: 'job.failed', status: 'failed', job_id: jobId });
    expect(forPath(path)[0]!.headers['x-mailvet-event']).toBe('job.failed');
  });

  it('queues nothing for a job without a webhook_url', async () => {
    const { accountId } = await customer();
    const jobId = await finishedJob(accountId, null);
    await enqueueWebhook(stack.ts.testDb.db, { jobId });
    const { rows } = await stack.ts.testDb.pool.query(`select count(*)::int as n from graphile_worker.jobs where key = $1`, [`webhook-deliver:${jobId}`]);
    expect(rows[0].n).toBe(0);
  });

  it('calls the webhook_url given to POST /v1/bulk when the job completes', { timeout: 45_000 }, async () => {
    const { key, secret } = await customer();
    const path = '/hooks/bulk';
    const res = await fetch(`${stack.ts.url}/v1/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emails: ['alice@normal.mailworld.test', 'ghost@normal.mailworld.test'], webhook_url: `${receiver.url}${path}` }),
    });
    expect(res.status).toBe(200);
    const { job_id } = (await res.json()) as { job_id: string };
    await expect.poll(() => forPath(path).length, { timeout: 40_000, interval: 250 }).toBe(1);
    const hook = forPath(path)[0]!;
    expect(JSON.parse(hook.body)).toMatchObject({ event: 'job.completed', job_id, status: 'completed', total_emails: 2, processed_emails: 2 });
    expect(verifyWebhookSignature(secret, hook.body, hook.headers['x-mailvet-signature'] as string)).toBe(true);
  });

  it('refuses to deliver to loopback or private addresses when they are not allowed', async () => {
    const { accountId } = await customer();
    const deps = { ...stack.ts.server.deps, env: { ...stack.ts.server.deps.env, WEBHOOK_ALLOW_PRIVATE: false } };
    for (const url of [`${receiver.url}/hooks/private`, `https://127.0.0.1:${new URL(receiver.url).port}/hooks/private`, 'https://localhost/hooks/private', 'https://169.254.169.254/latest']) {
      const jobId = await finishedJob(accountId, url);
      const outcome = await deliverJobWebhook(deps, jobId, { number: 1, max: 10 });
      expect(outcome.kind, url).toBe('refused');
      const audit = await stack.ts.testDb.db.selectFrom('audit_log').select(['action', 'data']).where('target_id', '=', jobId).executeTakeFirstOrThrow();
      expect(audit.action).toBe('webhook.failed');
    }
    expect(forPath('/hooks/private')).toHaveLength(0);
  });

  it('checks the address again at connection time (DNS rebinding)', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup()('localhost', {}, (e) => resolve(e)));
    expect(err?.code).toBe('EADDRBLOCKED');
  });

  it('never follows a redirect: a 3xx is a failed attempt and the Location is not called', async () => {
    const { accountId } = await customer();
    const target = '/hooks/redirected-here';
    const redirector = http.createServer((req, res) => {
      req.resume();
      res.writeHead(307, { Location: `${receiver.url}${target}` }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const jobId = await finishedJob(accountId, `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hooks/redirect`);
      await expect(deliverJobWebhook(stack.ts.server.deps, jobId, { number: 1, max: 10 })).rejects.toThrow(/HTTP 307/);
      expect(forPath(target)).toHaveLength(0);
    } finally {
      await new Promise<void>((r) => redirector.close(() => r()));
    }
  });
});
