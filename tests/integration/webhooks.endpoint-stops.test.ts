// Account webhooks of jobs that end without a worker (a scheduled run failing at once), and of
// endpoints removed or unsubscribed mid-retry (split from webhooks.delivery.test.ts, assertions unchanged).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { runSchedule } from '../../server/features/schedules/schedules.service';
import { ownerOn } from '../helpers/accounts';
import { webhookBodyProblems } from '../helpers/openapi-webhooks';
import { data, webhookDeliveryStack } from '../helpers/webhook-delivery-stack';

const { stack, receiver, db, finishedJob, forPath } = webhookDeliveryStack();

describe('account webhooks of jobs that end without a worker, and of endpoints removed mid-retry', () => {
  it('sends job.failed for a scheduled run that fails at once for lack of credits', { timeout: 20_000 }, async () => {
    const owner = await ownerOn(stack.ts, 'enterprise', 'events-sched-failed');
    expect((await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/sched-failed`, events: ['job.failed'] })).status).toBe(200);
    const schedule = await db()
      .insertInto('schedule')
      .values({ account_id: owner.accountId, created_by: owner.userId, name: 'Customers', email_list: ['a@x.test', 'b@x.test', 'c@x.test'], frequency: 'weekly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('account').set({ credits_balance: 2 }).where('id', '=', owner.accountId).execute();

    const run = await runSchedule(db(), schedule.id, new Date());
    expect(run.status).toBe('failed');
    // Queued with the failed job, in its transaction.
    const queued = await db().selectFrom('webhook_delivery').select(['event', 'job_id']).where('account_id', '=', owner.accountId).execute();
    expect(queued).toEqual([{ event: 'job.failed', job_id: run.jobId }]);
    await expect.poll(() => forPath('/sched-failed').length, { timeout: 10_000 }).toBe(1);
    const hook = forPath('/sched-failed')[0]!;
    expect(JSON.parse(hook.body)).toMatchObject({ event: 'job.failed', job_id: run.jobId, status: 'failed', total_emails: 3, processed_emails: 0 });
    expect(webhookBodyProblems('job.failed', hook.body)).toEqual([]);
  });

  it('stops retrying a delivery once its endpoint is deleted: nothing more is sent to the removed URL', { timeout: 20_000 }, async () => {
    const owner = await ownerOn(stack.ts, 'enterprise', 'events-endpoint-gone');
    const endpoint = data(await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/gone`, events: ['job.completed'] }));
    receiver.scriptFor('/gone', 503); // the first attempt fails; the retry is due a few seconds later
    await enqueueWebhook(db(), { jobId: await finishedJob(owner.accountId) });
    const delivery = () => db().selectFrom('webhook_delivery').select(['id', 'status', 'attempts', 'last_error']).where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    await expect.poll(async () => (await delivery()).attempts, { timeout: 10_000 }).toBe(1);
    expect(forPath('/gone')).toHaveLength(1);

    expect((await owner.client.trpcMutation('webhooks.deleteEndpoint', { id: endpoint.id })).status).toBe(200);
    const after = await delivery();
    expect(after).toMatchObject({ status: 'failed', attempts: 1 });
    expect(after.last_error).toMatch(/endpoint was deleted/);
    // Its queued retry is gone, and an attempt that still starts sends nothing.
    const retries = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key = ${`webhook-deliver:${after.id}`}`.execute(db());
    expect(retries.rows[0]!.n).toBe(0);
    expect(await deliverWebhook(stack.ts.server.deps, after.id, { number: 2, max: 10 })).toEqual({ kind: 'skipped', reason: 'already_failed' });
    expect(forPath('/gone')).toHaveLength(1);
  });

  it('stops retrying the deliveries of an event the endpoint no longer subscribes to, and keeps the others', { timeout: 20_000 }, async () => {
    const owner = await ownerOn(stack.ts, 'enterprise', 'events-unsubscribed');
    const endpoint = data(await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/unsub`, events: ['job.completed', 'job.failed'] }));
    receiver.scriptFor('/unsub', 503, 503); // both first attempts fail; their retries are due a few seconds later
    const failedJob = await finishedJob(owner.accountId, { status: 'failed' });
    await enqueueWebhook(db(), { jobId: failedJob });
    await enqueueWebhook(db(), { jobId: await finishedJob(owner.accountId) });
    const deliveries = () => db().selectFrom('webhook_delivery').select(['id', 'event', 'status', 'attempts', 'last_error']).where('account_id', '=', owner.accountId).orderBy('event').execute();
    await expect.poll(async () => (await deliveries()).map((d) => d.attempts), { timeout: 10_000 }).toEqual([1, 1]);

    expect((await owner.client.trpcMutation('webhooks.updateEndpoint', { id: endpoint.id, events: ['job.completed'] })).status).toBe(200);
    const [completed, failed] = await deliveries();
    expect(failed).toMatchObject({ event: 'job.failed', status: 'failed' });
    expect(failed!.last_error).toMatch(/no longer subscribes/);
    expect(completed).toMatchObject({ event: 'job.completed', status: 'pending' });
    expect(await deliverWebhook(stack.ts.server.deps, failed!.id, { number: 2, max: 10 })).toEqual({ kind: 'skipped', reason: 'already_failed' });
    // The job.completed delivery is still retried and arrives.
    await expect.poll(async () => (await deliveries())[0]!.status, { timeout: 15_000 }).toBe('delivered');
    expect(forPath('/unsub').map((r) => JSON.parse(r.body).event).sort()).toEqual(['job.completed', 'job.completed', 'job.failed']);
  });
});
