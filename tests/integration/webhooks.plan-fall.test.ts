// Account webhook endpoints are the Enterprise plan's (spec section 6: integrations, enterprise
// only). Once the plan falls (a refund, a downgrade at renewal), nothing more goes to them: the
// deliveries still waiting for a retry end as failed instead of being sent, and a replay of an
// endpoint's delivery is refused (403 PLAN_REQUIRED) — while a bulk job's own webhook_url, a Pro
// feature, is still delivered and replayed on Pro.
import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { ownerOn } from '../helpers/accounts';
import { fileFixture } from '../helpers/file-fixture';
import { insertFinishedJob } from '../helpers/jobs';
import { testServer } from '../helpers/test-server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

// Web only: the test sends each delivery itself.
const ts = testServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const receiver = fileFixture(startWebhookReceiver, (r) => r.close());
const db = () => ts.testDb.db;
const send = (id: string) => deliverWebhook({ db: db(), auth: ts.server.deps.auth, env: ts.server.deps.env }, id, { number: 1, max: 10 });
const deliveries = (jobId: string) => db().selectFrom('webhook_delivery').select(['id', 'url', 'endpoint_id', 'status', 'last_error']).where('job_id', '=', jobId).orderBy('url').execute();

describe('account webhook endpoints after the plan falls below Enterprise', () => {
  it('send nothing more: pending deliveries end as failed, and their replays are refused; the job’s own webhook_url still goes', async () => {
    const owner = await ownerOn(ts, 'enterprise', 'hooks-fall');
    const ep = await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/fall/endpoint`, events: ['job.completed'] });
    expect(ep.status).toBe(200);

    // Delivered while on Enterprise, then one more job finishes just before the plan falls.
    const earlier = await insertFinishedJob(db(), owner.accountId, { webhookUrl: `${receiver.url}/fall/job-url` });
    await enqueueWebhook(db(), { jobId: earlier });
    for (const d of await deliveries(earlier)) expect(await send(d.id)).toMatchObject({ kind: 'delivered' });
    const pending = await insertFinishedJob(db(), owner.accountId, { webhookUrl: `${receiver.url}/fall/job-url-2` });
    await enqueueWebhook(db(), { jobId: pending });
    const [toEndpoint, toJobUrl] = await deliveries(pending);
    expect(toEndpoint!.endpoint_id).not.toBeNull();
    expect(toJobUrl!.endpoint_id).toBeNull();

    await db().updateTable('account').set({ plan: 'pro' }).where('id', '=', owner.accountId).execute();
    const before = receiver.received.filter((r) => r.path === '/fall/endpoint').length;

    expect(await send(toEndpoint!.id)).toMatchObject({ kind: 'refused', message: 'Account webhooks are no longer on your plan (Enterprise); this delivery was not sent.' });
    expect(await send(toJobUrl!.id)).toMatchObject({ kind: 'delivered' });
    expect((await deliveries(pending)).map((d) => [d.url.endsWith('/fall/endpoint'), d.status])).toEqual([
      [true, 'failed'],
      [false, 'delivered'],
    ]);
    expect(receiver.received.filter((r) => r.path === '/fall/endpoint').length).toBe(before);

    const [sentToEndpoint, sentToJobUrl] = await deliveries(earlier);
    const refused = await owner.client.trpcMutation('webhooks.replay', { id: sentToEndpoint!.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.appCode).toBe('PLAN_REQUIRED');
    expect(refused.body.error.message).toBe('Integrations are available on the Enterprise plan.');
    const replayed = await owner.client.trpcMutation('webhooks.replay', { id: sentToJobUrl!.id });
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(200);
  });
});
