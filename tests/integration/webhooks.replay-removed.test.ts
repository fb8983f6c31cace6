// Replaying a logged delivery never reaches a URL the account took away: once an endpoint is deleted,
// its deliveries (whose endpoint_id the delete clears) cannot be replayed to it, and a delivery that
// names no endpoint goes out only to its job's own webhook_url.
import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { ownerOn } from '../helpers/accounts';
import { fileFixture } from '../helpers/file-fixture';
import { insertFinishedJob } from '../helpers/jobs';
import { testServer } from '../helpers/test-server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

const ts = testServer({ role: 'all', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const receiver = fileFixture(startWebhookReceiver, (r) => r.close());
const db = () => ts.testDb.db;
const forPath = (path: string) => receiver.received.filter((r) => r.path === path);

describe('replaying a delivery', () => {
  it("of a deleted endpoint is refused and sends nothing to the endpoint's URL", { timeout: 20_000 }, async () => {
    const owner = await ownerOn(ts, 'enterprise', 'replay-removed');
    const endpoint = (await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/removed`, events: ['job.completed'] })).body.result.data;
    await enqueueWebhook(db(), { jobId: await insertFinishedJob(db(), owner.accountId) });
    await expect.poll(() => forPath('/removed').length, { timeout: 10_000 }).toBe(1);
    const delivered = await db().selectFrom('webhook_delivery').select(['id', 'status']).where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    await expect.poll(async () => (await db().selectFrom('webhook_delivery').select('status').where('id', '=', delivered.id).executeTakeFirstOrThrow()).status).toBe('delivered');

    expect((await owner.client.trpcMutation('webhooks.deleteEndpoint', { id: endpoint.id })).status).toBe(200);
    const replay = await owner.client.trpcMutation('webhooks.replay', { id: delivered.id });
    expect(replay.status).toBe(409);
    expect(replay.body.error.message).toMatch(/endpoint was deleted/);
    expect(await db().selectFrom('webhook_delivery').select('id').where('account_id', '=', owner.accountId).execute()).toHaveLength(1);

    // A delivery already queued for it (a replay made just before the delete, say) is not sent either.
    const stray = await db()
      .insertInto('webhook_delivery')
      .values({ account_id: owner.accountId, endpoint_id: null, job_id: null, event: 'job.completed', url: `${receiver.url}/removed`, body: '{}', replay_of: delivered.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const outcome = await deliverWebhook(ts.server.deps, stray.id, { number: 1, max: 10 });
    expect(outcome.kind).toBe('refused');
    expect(await db().selectFrom('webhook_delivery').select(['status', 'last_error']).where('id', '=', stray.id).executeTakeFirstOrThrow()).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/endpoint was deleted/) });
    await new Promise((r) => setTimeout(r, 300));
    expect(forPath('/removed')).toHaveLength(1);
  });

  it("of a job's own webhook_url still works", { timeout: 20_000 }, async () => {
    const owner = await ownerOn(ts, 'pro', 'replay-job-url');
    const jobId = await insertFinishedJob(db(), owner.accountId, { webhookUrl: `${receiver.url}/own` });
    await enqueueWebhook(db(), { jobId });
    await expect.poll(() => forPath('/own').length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await db().selectFrom('webhook_delivery').select('status').where('id', '=', jobId).executeTakeFirstOrThrow()).status).toBe('delivered');
    const replay = await owner.client.trpcMutation('webhooks.replay', { id: jobId });
    expect(replay.status).toBe(200);
    await expect.poll(() => forPath('/own').length, { timeout: 10_000 }).toBe(2);
    // A replay of the replay too.
    expect((await owner.client.trpcMutation('webhooks.replay', { id: replay.body.result.data.id })).status).toBe(200);
    await expect.poll(() => forPath('/own').length, { timeout: 10_000 }).toBe(3);
  });
});
