// A bulk job's webhook_url is told when the job ends (POST /v1/bulk: "when the job ends") — a
// cancelled job ends too. Cancelled from History by a teammate, or through the API, the integrator
// that started it with a webhook_url must not wait for ever: its URL gets a signed job.cancelled
// event (the job as GET /v1/jobs/{id} shows it, status cancelled), once, and account endpoints that
// subscribe to job.cancelled get it as well.
import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../server/features/webhooks/webhook-delivery';
import { verifyWebhookV2 } from '../../server/features/webhooks/webhook-signing';
import { ownerOn } from '../helpers/accounts';
import { fileFixture } from '../helpers/file-fixture';
import { webhookBodyProblems } from '../helpers/openapi-webhooks';
import { testServer } from '../helpers/test-server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

// Web only: nothing works the job, so it is still pending when it is cancelled.
const ts = testServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const receiver = fileFixture(startWebhookReceiver, (r) => r.close());
const db = () => ts.testDb.db;

async function v1(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ts.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function deliveriesOf(jobId: string) {
  return db().selectFrom('webhook_delivery').select(['id', 'event', 'url', 'body', 'endpoint_id']).where('job_id', '=', jobId).orderBy('created_at').execute();
}

async function send(deliveryId: string) {
  return deliverWebhook({ db: db(), auth: ts.server.deps.auth, env: ts.server.deps.env }, deliveryId, { number: 1, max: 10 });
}

describe('a cancelled bulk job', () => {
  it('tells its webhook_url (job.cancelled, signed, once), cancelled through the API or from History', async () => {
    const owner = await ownerOn(ts, 'pro', 'cancel-hook');
    const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'hooks' })).body.result.data.api_key as string;
    const secret = (await owner.client.trpcQuery('apiKeys.webhookSecret')).body.result.data.secret as string;

    const started = await v1(key, 'POST', '/bulk', { emails: ['a@example.com', 'b@example.com'], webhook_url: `${receiver.url}/api-cancel` });
    expect(started.status).toBe(200);
    const jobId = started.body.job_id as string;
    const cancelled = await v1(key, 'POST', `/jobs/${jobId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((await v1(key, 'POST', `/jobs/${jobId}/cancel`)).status).toBe(200); // again: the same answer, nothing more queued

    const rows = await deliveriesOf(jobId);
    expect(rows.map((r) => [r.event, r.url])).toEqual([['job.cancelled', `${receiver.url}/api-cancel`]]);
    expect(await send(rows[0]!.id)).toMatchObject({ kind: 'delivered', status: 200 });
    const got = receiver.received.find((r) => r.path === '/api-cancel')!;
    const job = (await v1(key, 'GET', `/jobs/${jobId}`)).body;
    expect(JSON.parse(got.body)).toEqual({ event: 'job.cancelled', ...job });
    expect(job.status).toBe('cancelled');
    expect(got.headers['x-mailvet-event']).toBe('job.cancelled');
    expect(verifyWebhookV2(secret, { rawBody: got.body, deliveryId: got.headers['x-mailvet-delivery'] as string, header: got.headers['x-mailvet-signature-v2'] as string })).toBe(true);
    expect(webhookBodyProblems('job.cancelled', got.body)).toEqual([]);

    // Cancelled by a person in History: the integrator's URL hears of it the same way.
    const other = await v1(key, 'POST', '/bulk', { emails: ['c@example.com'], webhook_url: `${receiver.url}/history-cancel` });
    const byPerson = await owner.client.trpcMutation('jobs.cancel', { jobId: other.body.job_id });
    expect(byPerson.status, JSON.stringify(byPerson.body)).toBe(200);
    expect((await deliveriesOf(other.body.job_id as string)).map((r) => [r.event, r.url])).toEqual([['job.cancelled', `${receiver.url}/history-cancel`]]);
  });

  it('goes to the account endpoints that subscribe to job.cancelled, and only to them', async () => {
    const owner = await ownerOn(ts, 'enterprise', 'cancel-endpoints');
    const sub = await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/ep-cancelled`, events: ['job.cancelled'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const notSub = await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/ep-done`, events: ['job.completed', 'job.failed'] });
    expect(notSub.status).toBe(200);
    const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'hooks' })).body.result.data.api_key as string;
    const started = await v1(key, 'POST', '/bulk', { emails: ['a@example.com'] });
    expect((await v1(key, 'POST', `/jobs/${started.body.job_id}/cancel`)).status).toBe(200);
    const rows = await deliveriesOf(started.body.job_id as string);
    expect(rows.map((r) => [r.event, r.url])).toEqual([['job.cancelled', `${receiver.url}/ep-cancelled`]]);
    const log = (await owner.client.trpcQuery('webhooks.deliveries', { event: 'job.cancelled' })).body.result.data;
    expect(log.items.map((d: { event: string }) => d.event)).toEqual(['job.cancelled']);
  });
});
