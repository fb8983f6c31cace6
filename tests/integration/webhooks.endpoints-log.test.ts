// Account webhook endpoints (Enterprise) per event, the delivery log and replay (split from
// webhooks.delivery.test.ts, assertions unchanged): endpoints subscribe to events (job.completed,
// job.failed, schedule.run_completed), every delivery is logged (status, latency, attempt, error),
// matches the OpenAPI document and the Documentation page, and can be replayed by its account only.
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleRunPayload as documentedSchedulePayload, webhookPayload as documentedJobPayload } from '../../src/features/docs/examples';
import { verifyWebhookSignature, verifyWebhookV2 } from '../../server/features/webhooks/webhook-signing';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { joinAs, ownerOn, type Person } from '../helpers/accounts';
import { webhookBodyProblems, webhookHeaderProblems } from '../helpers/openapi-webhooks';
import { data, webhookDeliveryStack } from '../helpers/webhook-delivery-stack';

const { stack, receiver, db, finishedJob, forPath } = webhookDeliveryStack();

describe('account webhooks per event, the delivery log and replay', () => {
  let ent: Person;
  let member: Person;
  beforeAll(async () => {
    ent = await ownerOn(stack.ts, 'enterprise', 'events-ent');
    member = await joinAs(stack.ts, ent, 'member', 'events-member');
  }, 30_000);

  it('refuses bad endpoints with a 400 and changes nothing', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ url: `${receiver.url}/e`, events: ['job.done'] }, /Unknown webhook event/],
      [{ url: `${receiver.url}/e`, events: ['job.completed', 'JOB.FAILED'] }, /Unknown webhook event/],
      [{ url: `${receiver.url}/e`, events: [] }, /at least one event/],
      [{ url: `${receiver.url}/e`, events: ['job.failed', 'job.failed'] }, /listed once/],
      [{ url: `${receiver.url}/e`, events: 'job.completed' }, /list of event names/],
      [{ url: 'ftp://example.com/hook', events: ['job.completed'] }, /https/],
      [{ url: '', events: ['job.completed'] }, /Please enter a webhook URL/],
      [{ events: ['job.completed'] }, /Please enter a webhook URL/],
    ];
    for (const [input, message] of bad) {
      const r = await ent.client.trpcMutation('webhooks.createEndpoint', input);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect(await db().selectFrom('webhook_endpoint').select('id').where('account_id', '=', ent.accountId).execute()).toHaveLength(0);

    const byMember = await member.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/e`, events: ['job.completed'] });
    expect(byMember.status).toBe(403);
    const pro = await ownerOn(stack.ts, 'pro', 'events-pro');
    const onPro = await pro.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/e`, events: ['job.completed'] });
    expect(onPro.status).toBe(403);
    expect(onPro.body.error.data.appCode).toBe('PLAN_REQUIRED');
    expect((await ent.client.trpcMutation('webhooks.updateEndpoint', { id: 'nope', events: ['job.completed'] })).status).toBe(400);
    expect((await ent.client.trpcMutation('webhooks.updateEndpoint', { id: crypto.randomUUID(), events: ['job.completed'] })).status).toBe(404);
  });

  it('sends each subscribed event, logs every delivery and lets the account replay one', { timeout: 60_000 }, async () => {
    const done = await ent.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/ent/completed`, events: ['job.completed'] });
    expect(done.status).toBe(200);
    expect(data(done)).toMatchObject({ url: `${receiver.url}/ent/completed`, events: ['job.completed'] });
    const failed = await ent.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/ent/failed`, events: ['job.failed'] });
    expect(failed.status).toBe(200);
    const dup = await ent.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/ent/failed`, events: ['job.completed'] });
    expect(dup.status).toBe(409);
    expect(data(await ent.client.trpcQuery('webhooks.endpoints'))).toHaveLength(2);
    expect((await member.client.trpcQuery('webhooks.endpoints')).status).toBe(403);

    const secret = data(await ent.client.trpcMutation('webhooks.rotateSecret')).secret as string;
    receiver.scriptFor('/ent/completed', 500); // the first attempt fails: logged, then retried
    const okJob = await finishedJob(ent.accountId);
    await enqueueWebhook(db(), { jobId: okJob });
    await enqueueWebhook(db(), { jobId: okJob }); // a retried finalize queues nothing twice
    const badJob = await finishedJob(ent.accountId, { status: 'failed' });
    await enqueueWebhook(db(), { jobId: badJob });

    await expect.poll(() => forPath('/ent/completed').length, { timeout: 20_000, interval: 250 }).toBe(2);
    await expect.poll(() => forPath('/ent/failed').length, { timeout: 10_000 }).toBe(1);
    const [firstTry, secondTry] = forPath('/ent/completed');
    expect(JSON.parse(secondTry!.body)).toMatchObject({ event: 'job.completed', job_id: okJob });
    expect(secondTry!.body).toBe(firstTry!.body);
    expect(secondTry!.headers['x-mailvet-event']).toBe('job.completed');
    expect(verifyWebhookSignature(secret, secondTry!.body, secondTry!.headers['x-mailvet-signature'] as string)).toBe(true);
    // The timestamped signature verifies with the rotated secret, on an account endpoint's own delivery id, and not once tampered.
    const v2 = { rawBody: secondTry!.body, deliveryId: secondTry!.headers['x-mailvet-delivery'] as string, header: secondTry!.headers['x-mailvet-signature-v2'] as string, nowSeconds: Number(secondTry!.headers['x-mailvet-timestamp']) };
    expect(v2.header).toMatch(new RegExp(`^t=${v2.nowSeconds},v1=[0-9a-f]{64}$`));
    expect(verifyWebhookV2(secret, v2)).toBe(true);
    expect(verifyWebhookV2(secret, { ...v2, deliveryId: forPath('/ent/failed')[0]!.headers['x-mailvet-delivery'] as string })).toBe(false);
    expect(verifyWebhookV2(secret, { ...v2, rawBody: forPath('/ent/failed')[0]!.body })).toBe(false);
    expect(verifyWebhookV2(secret, { ...v2, header: v2.header.replace(/^t=\d+/, `t=${v2.nowSeconds - 1}`) })).toBe(false);
    expect(JSON.parse(forPath('/ent/failed')[0]!.body)).toMatchObject({ event: 'job.failed', job_id: badJob, status: 'failed' });
    // Each body matches the schema the OpenAPI document publishes for its event.
    expect(webhookBodyProblems('job.completed', secondTry!.body)).toEqual([]);
    expect(webhookBodyProblems('job.failed', forPath('/ent/failed')[0]!.body)).toEqual([]);
    expect(webhookBodyProblems('job.failed', secondTry!.body.replace('"job.completed"', '"job.done"'))).not.toEqual([]);
    // The Documentation page's example has exactly these fields and headers.
    const docBody = JSON.parse(documentedJobPayload.slice(documentedJobPayload.indexOf('\n\n') + 2)) as Record<string, unknown>;
    expect(Object.keys(docBody).sort()).toEqual(Object.keys(JSON.parse(secondTry!.body)).sort());
    // Every header sent is one the OpenAPI document declares, and the reverse.
    expect(webhookHeaderProblems('job.completed', secondTry!.headers)).toEqual([]);
    expect(webhookHeaderProblems('job.failed', forPath('/ent/failed')[0]!.headers)).toEqual([]);
    for (const h of ['content-type', 'user-agent', 'x-mailvet-event', 'x-mailvet-signature', 'x-mailvet-timestamp', 'x-mailvet-signature-v2', 'x-mailvet-delivery', 'x-mailvet-attempt']) {
      expect(secondTry!.headers[h], h).toBeDefined();
      expect(documentedJobPayload.toLowerCase()).toContain(`${h}: `);
    }

    await expect.poll(async () => data(await ent.client.trpcQuery('webhooks.deliveries', { status: 'delivered' })).items.length, { timeout: 10_000 }).toBe(2);
    const all = data(await ent.client.trpcQuery('webhooks.deliveries', {}));
    const completed = all.items.find((d: { event: string }) => d.event === 'job.completed');
    expect(completed).toMatchObject({ status: 'delivered', status_code: 200, attempts: 2, error: null, job_id: okJob, url: `${receiver.url}/ent/completed` });
    expect(completed.latency_ms).toEqual(expect.any(Number));
    const detail = data(await ent.client.trpcQuery('webhooks.delivery', { id: completed.id }));
    expect(detail.attempt_log).toMatchObject([
      { attempt: 1, status_code: 500, error: 'receiver answered HTTP 500' },
      { attempt: 2, status_code: 200, error: null },
    ]);
    expect(detail.body).toBe(secondTry!.body);
    const onlyFailed = data(await ent.client.trpcQuery('webhooks.deliveries', { event: 'job.failed' }));
    expect(onlyFailed.items.map((d: { job_id: string }) => d.job_id)).toEqual([badJob]);
    // Paging: one at a time, newest first, the cursor continues where the page ended.
    const p1 = data(await ent.client.trpcQuery('webhooks.deliveries', { limit: 1 }));
    const p2 = data(await ent.client.trpcQuery('webhooks.deliveries', { limit: 1, cursor: p1.next_cursor }));
    expect(p1.items).toHaveLength(1);
    expect(p2.items[0].id).not.toBe(p1.items[0].id);
    expect(p2.next_cursor).toBeNull();

    // Replay: a new delivery of the same body, logged on its own.
    const replay = await ent.client.trpcMutation('webhooks.replay', { id: completed.id });
    expect(replay.status).toBe(200);
    expect(data(replay)).toMatchObject({ replay_of: completed.id, event: 'job.completed', status: 'pending' });
    await expect.poll(() => forPath('/ent/completed').length, { timeout: 10_000 }).toBe(3);
    const replayed = forPath('/ent/completed')[2]!;
    expect(replayed.body).toBe(secondTry!.body);
    expect(replayed.headers['x-mailvet-delivery']).toBe(data(replay).id);
    expect(replayed.headers['x-mailvet-delivery']).not.toBe(secondTry!.headers['x-mailvet-delivery']);
    // A replay is a new delivery signed at its own time over its own id.
    expect(verifyWebhookV2(secret, { rawBody: replayed.body, deliveryId: data(replay).id, header: replayed.headers['x-mailvet-signature-v2'] as string, nowSeconds: Number(replayed.headers['x-mailvet-timestamp']) })).toBe(true);
    await expect.poll(async () => data(await ent.client.trpcQuery('webhooks.delivery', { id: data(replay).id })).status, { timeout: 10_000 }).toBe('delivered');
    const audit = await db().selectFrom('audit_log').select(['action', 'actor_user_id']).where('account_id', '=', ent.accountId).where('action', '=', 'webhook.replayed').execute();
    expect(audit).toEqual([{ action: 'webhook.replayed', actor_user_id: ent.userId }]);

    // Another account, a member, bad ids: 404, 403, 400, and nothing is sent.
    const other = await ownerOn(stack.ts, 'enterprise', 'events-other');
    expect((await other.client.trpcMutation('webhooks.replay', { id: completed.id })).status).toBe(404);
    expect((await other.client.trpcQuery('webhooks.delivery', { id: completed.id })).status).toBe(404);
    expect(data(await other.client.trpcQuery('webhooks.deliveries', {})).items).toEqual([]);
    expect((await other.client.trpcMutation('webhooks.deleteEndpoint', { id: data(done).id })).status).toBe(404);
    expect((await member.client.trpcMutation('webhooks.replay', { id: completed.id })).status).toBe(403);
    expect((await member.client.trpcQuery('webhooks.deliveries', {})).status).toBe(403);
    expect((await ent.client.trpcMutation('webhooks.replay', { id: 'not-a-uuid' })).status).toBe(400);
    expect((await ent.client.trpcMutation('webhooks.replay', { id: crypto.randomUUID() })).status).toBe(404);
    expect((await ent.client.trpcQuery('webhooks.deliveries', { cursor: crypto.randomUUID() })).status).toBe(400);
    expect((await ent.client.trpcQuery('webhooks.deliveries', { status: 'lost' })).status).toBe(400);
    expect((await ent.client.trpcQuery('webhooks.deliveries', { event: 'job.done' })).status).toBe(400);
    await new Promise((r) => setTimeout(r, 1500));
    expect(forPath('/ent/completed')).toHaveLength(3);

    // Changing and removing endpoints.
    const upd = await ent.client.trpcMutation('webhooks.updateEndpoint', { id: data(done).id, events: ['job.completed', 'job.failed'] });
    expect(data(upd).events).toEqual(['job.completed', 'job.failed']);
    expect((await ent.client.trpcMutation('webhooks.deleteEndpoint', { id: data(failed).id })).status).toBe(200);
    expect(data(await ent.client.trpcQuery('webhooks.endpoints')).map((e: { id: string }) => e.id)).toEqual([data(done).id]);
    const actions = (await db().selectFrom('audit_log').select('action').where('account_id', '=', ent.accountId).where('action', 'like', 'webhook.endpoint_%').execute()).map((a) => a.action);
    expect(actions.sort()).toEqual(['webhook.endpoint_created', 'webhook.endpoint_created', 'webhook.endpoint_deleted', 'webhook.endpoint_updated']);
  });

  it('sends schedule.run_completed with the addresses whose status changed since the previous run', { timeout: 30_000 }, async () => {
    const owner = await ownerOn(stack.ts, 'enterprise', 'events-schedule');
    expect((await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/sched`, events: ['schedule.run_completed'] })).status).toBe(200);
    const schedule = await db()
      .insertInto('schedule')
      .values({ account_id: owner.accountId, created_by: owner.userId, name: 'Newsletter', email_list: ['a@x.test', 'b@x.test', 'c@x.test'], frequency: 'weekly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const result = (jobId: string, email: string, r: 'valid' | 'invalid' | 'risky', reason: string) => ({
      account_id: owner.accountId, job_id: jobId, email, result: r, verdict: r === 'valid' ? 'deliverable' : 'undeliverable', reason,
      is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: r === 'valid', deliverability_score: r === 'valid' ? 90 : 10, role_detected: false, disposable_provider: false,
    });
    const first = await finishedJob(owner.accountId, { scheduleId: schedule.id, createdAt: new Date(Date.now() - 7 * 86_400_000) });
    await db().insertInto('validation_result').values([result(first, 'a@x.test', 'valid', 'accepted'), result(first, 'b@x.test', 'valid', 'accepted'), result(first, 'c@x.test', 'invalid', 'mailbox_not_found')] as never).execute();
    await enqueueWebhook(db(), { jobId: first });
    await expect.poll(() => forPath('/sched').length, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(forPath('/sched')[0]!.body)).toMatchObject({ event: 'schedule.run_completed', job_id: first, previous_job_id: null, changed: [], changed_count: 0 });

    const second = await finishedJob(owner.accountId, { scheduleId: schedule.id });
    await db().insertInto('validation_result').values([result(second, 'a@x.test', 'valid', 'accepted'), result(second, 'b@x.test', 'invalid', 'mailbox_not_found'), result(second, 'c@x.test', 'valid', 'accepted')] as never).execute();
    await enqueueWebhook(db(), { jobId: second });
    await expect.poll(() => forPath('/sched').length, { timeout: 10_000 }).toBe(2);
    const hook = forPath('/sched')[1]!;
    expect(hook.headers['x-mailvet-event']).toBe('schedule.run_completed');
    expect(JSON.parse(hook.body)).toEqual({
      event: 'schedule.run_completed',
      schedule_id: schedule.id,
      schedule_name: 'Newsletter',
      job_id: second,
      previous_job_id: first,
      total_emails: 3,
      processed_emails: 3,
      completed_at: expect.any(String),
      changed: [
        { email: 'b@x.test', previous: 'valid', current: 'invalid', reason: 'mailbox_not_found' },
        { email: 'c@x.test', previous: 'invalid', current: 'valid', reason: 'accepted' },
      ],
      changed_count: 2,
      truncated: false,
    });
    expect(webhookBodyProblems('schedule.run_completed', hook.body)).toEqual([]);
    expect(webhookBodyProblems('schedule.run_completed', forPath('/sched')[0]!.body)).toEqual([]);
    // The Documentation page shows these very fields and headers.
    const documented = (http: string) => JSON.parse(http.slice(http.indexOf('\n\n') + 2)) as Record<string, unknown>;
    expect(Object.keys(documented(documentedSchedulePayload)).sort()).toEqual(Object.keys(JSON.parse(hook.body)).sort());
    expect(Object.keys((documented(documentedSchedulePayload).changed as object[])[0]!).sort()).toEqual(['current', 'email', 'previous', 'reason']);
    const firstHook = forPath('/sched')[0]!;
    expect(documentedSchedulePayload).toContain(`X-Mailvet-Event: ${firstHook.headers['x-mailvet-event']}`);
    // Not subscribed to job.completed: the schedule's jobs sent nothing else.
    const events = (await db().selectFrom('webhook_delivery').select('event').where('account_id', '=', owner.accountId).execute()).map((d) => d.event);
    expect(events).toEqual(['schedule.run_completed', 'schedule.run_completed']);
  });

  it('sends nothing to account endpoints once the plan no longer includes them', async () => {
    const owner = await ownerOn(stack.ts, 'enterprise', 'events-downgraded');
    expect((await owner.client.trpcMutation('webhooks.createEndpoint', { url: `${receiver.url}/downgraded`, events: ['job.completed'] })).status).toBe(200);
    await db().updateTable('account').set({ plan: 'pro' }).where('id', '=', owner.accountId).execute();
    await enqueueWebhook(db(), { jobId: await finishedJob(owner.accountId) });
    expect(await db().selectFrom('webhook_delivery').select('id').where('account_id', '=', owner.accountId).execute()).toEqual([]);
  });
});
