// Outgoing webhooks under a hostile receiver, signing secrets, events and the delivery log:
//  - a receiver that drips one byte every second cannot hold a delivery past the total deadline
//    (WEBHOOK_TIMEOUT_MS), nor a bulk-job slot: another account's bulk job completes while
//    deliveries to it are stuck; the stuck attempts fail at the deadline, are logged and retried;
//  - an endless answer is read up to the cap, not to the deadline;
//  - each account's signing secret rotates (owner/admin), is shown once and stored encrypted; the
//    old secret stops signing at once;
//  - account endpoints subscribe to events (job.completed, job.failed, schedule.run_completed),
//    every delivery is logged (status, latency, attempt, error) and can be replayed by its account.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleRunPayload as documentedSchedulePayload, webhookPayload as documentedJobPayload } from '../../src/features/docs/examples';
import { verifyWebhookSignature, verifyWebhookV2 } from '../../server/features/webhooks/webhook-signing';
import { purgeExpired } from '../../server/features/retention/retention.service';
import { deliverWebhook, postWithDeadline } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook, MAX_WEBHOOK_ATTEMPTS } from '../../server/features/webhooks/webhook-queue';
import { WEBHOOK_RETRY_WINDOW_HOURS } from '../../server/contracts/webhooks';
import { runSchedule } from '../../server/features/schedules/schedules.service';
import { joinAs, ownerOn, type Person } from '../helpers/accounts';
import { fileFixture } from '../helpers/file-fixture';
import { insertFinishedJob, type FinishedJobOptions } from '../helpers/jobs';
import { webhookBodyProblems, webhookHeaderProblems } from '../helpers/openapi-webhooks';
import { probeStack } from '../helpers/probe-stack';
import { startWebhookReceiver } from '../helpers/webhook-receiver';
import { buildScenarios } from '../mailworld/index';

const DEADLINE_MS = 3000;
const TOKEN = 'webhooks-delivery-token';

/**
 * Reads the request, then drips its answer — status line and headers included — one byte a second,
 * never finishing. Counts the connections it holds open right now.
 */
async function startDripReceiver() {
  const answer = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n' + 'x'.repeat(100_000));
  const sockets = new Set<net.Socket>();
  const closedAfterMs: number[] = [];
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    const opened = Date.now();
    let i = 0;
    const timer = setInterval(() => {
      if (i < answer.length && !socket.destroyed) socket.write(answer.subarray(i, ++i));
    }, 1000);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      closedAfterMs.push(Date.now() - opened);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => sockets.size,
    accepted: () => accepted,
    closedAfterMs,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** 200 and an answer that never ends, as fast as the socket takes it. */
async function startFloodReceiver() {
  const chunk = Buffer.alloc(16 * 1024, 'y');
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const stack = probeStack({
  token: TOKEN,
  domains: buildScenarios().filter((d) => d.domain.startsWith('normal.')),
  role: 'all',
  env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: String(DEADLINE_MS), WORKER_CONCURRENCY: '2', WEBHOOK_CONCURRENCY: '2' },
  timeoutMs: 60_000,
});
const receiver = fileFixture(startWebhookReceiver, (r) => r.close());

const db = () => stack.ts.testDb.db;
const data = (r: { body: any }) => r.body.result.data;

const finishedJob = (accountId: string, o?: FinishedJobOptions) => insertFinishedJob(db(), accountId, o);

const forPath = (path: string) => receiver.received.filter((r) => r.path === path);

describe('a slow receiver', () => {
  it('fails at the total deadline, is logged and retried, and never holds up another account’s bulk job', { timeout: 90_000 }, async () => {
    const drip = await startDripReceiver();
    try {
      // Four accounts whose receivers drip: more stuck deliveries than the worker has bulk slots (2).
      const dripping = await Promise.all([0, 1, 2, 3].map((i) => ownerOn(stack.ts, 'pro', `drip-${i}`)));
      const dripJobs: string[] = [];
      for (const p of dripping) {
        const jobId = await finishedJob(p.accountId, { webhookUrl: `${drip.url}/hook` });
        await enqueueWebhook(db(), { jobId });
        dripJobs.push(jobId);
      }
      await expect.poll(() => drip.open(), { timeout: 10_000, interval: 50 }).toBe(2); // the webhook runner's two slots, no more

      // Another account's bulk job over the real pipeline (probe daemon, SMTP world).
      const other = await ownerOn(stack.ts, 'pro', 'bulk-other');
      const key = data(await other.client.trpcMutation('apiKeys.create', { name: 'bulk' })).api_key as string;
      const res = await fetch(`${stack.ts.url}/v1/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ emails: ['alice@normal.mailworld.test', 'bob@normal.mailworld.test', 'ghost@normal.mailworld.test'] }),
      });
      expect(res.status).toBe(200);
      const { job_id } = (await res.json()) as { job_id: string };
      const status = async () => (await db().selectFrom('validation_job').select('status').where('id', '=', job_id).executeTakeFirstOrThrow()).status;
      await expect.poll(status, { timeout: 20_000, interval: 100 }).toBe('completed');
      // It completed while the drip receivers still held their deliveries.
      expect(drip.open()).toBeGreaterThan(0);

      // Every stuck attempt ends at the deadline: logged with its error and latency, left to retry.
      await expect
        .poll(async () => (await db().selectFrom('webhook_attempt').select('id').where('delivery_id', 'in', dripJobs).execute()).length, { timeout: 30_000, interval: 250 })
        .toBeGreaterThanOrEqual(dripJobs.length);
      const attempts = await db().selectFrom('webhook_attempt').selectAll().where('delivery_id', 'in', dripJobs).where('attempt', '=', 1).execute();
      expect(attempts).toHaveLength(dripJobs.length);
      for (const a of attempts) {
        expect(a.error).toBe(`no complete answer within ${DEADLINE_MS} ms`);
        expect(a.status_code).toBeNull();
        expect(a.latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      }
      // We hung up at the deadline, not before it. The receiver's clock starts at its accept, after ours
      // (the connect), which on a loaded machine takes more than a few milliseconds.
      for (const ms of drip.closedAfterMs) expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 500);
      const deliveries = await db().selectFrom('webhook_delivery').select(['status', 'last_error', 'attempts']).where('id', 'in', dripJobs).execute();
      for (const d of deliveries) {
        expect(d.status).toBe('pending');
        expect(d.last_error).toMatch(/no complete answer/);
      }
      const { rows } = await stack.ts.testDb.pool.query(`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'webhook-deliver' and key = any($1::text[]) and attempts >= 1`, [
        dripJobs.map((id) => `webhook-deliver:${id}`),
      ]);
      expect(rows[0].n).toBeGreaterThan(0); // waiting for their retry
      // The delivery log tells the owner.
      const log = data(await dripping[0]!.client.trpcQuery('webhooks.deliveries', {}));
      expect(log.items[0]).toMatchObject({ id: dripJobs[0], event: 'job.completed', status: 'pending', status_code: null, error: `no complete answer within ${DEADLINE_MS} ms` });
      expect(log.items[0].latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    } finally {
      await db().deleteFrom('webhook_delivery').where('url', 'like', `${drip.url}%`).execute();
      await drip.close();
    }
  });

  it('reads at most the cap of an endless answer and takes the status', { timeout: 20_000 }, async () => {
    const flood = await startFloodReceiver();
    try {
      const r = await postWithDeadline(new URL(`${flood.url}/hook`), '{}', { 'content-type': 'application/json' }, { allowPrivate: true, deadlineMs: DEADLINE_MS });
      expect(r.status).toBe(200);
    } finally {
      await flood.close();
    }
  });

  it('counts a slow answer as failed even when its status line came in time', { timeout: 20_000 }, async () => {
    const slow = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10' });
      const t = setInterval(() => res.write('x'), 1000);
      res.on('close', () => clearInterval(t));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const url = new URL(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`);
      await expect(postWithDeadline(url, '{}', {}, { allowPrivate: true, deadlineMs: 1500 })).rejects.toThrow('no complete answer within 1500 ms');
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });
});

describe('signing secrets', () => {
  it('rotates for owners and admins only: shown once, stored encrypted, the old secret stops signing', { timeout: 30_000 }, async () => {
    const owner = await ownerOn(stack.ts, 'pro', 'secret-owner');
    const admin = await joinAs(stack.ts, owner, 'admin', 'secret-admin');
    const member = await joinAs(stack.ts, owner, 'member', 'secret-member');
    // The first view creates the account's secret and is the only answer that shows it.
    const legacy = data(await owner.client.trpcQuery('apiKeys.webhookSecret')).secret as string;
    expect(legacy).toMatch(/^whsec_/);
    const storedBefore = await db().selectFrom('webhook_signing_secret').select('ciphertext').where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();

    const refused = await member.client.trpcMutation('webhooks.rotateSecret');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only the account owner or an admin can manage webhook settings.');
    expect(await db().selectFrom('webhook_signing_secret').select('ciphertext').where('account_id', '=', owner.accountId).executeTakeFirstOrThrow()).toEqual(storedBefore);

    const first = await owner.client.trpcMutation('webhooks.rotateSecret');
    expect(first.status).toBe(200);
    const s1 = data(first).secret as string;
    expect(s1).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(s1).not.toBe(legacy);
    // Shown once: the page now gets only its first characters.
    const view = data(await owner.client.trpcQuery('apiKeys.webhookSecret'));
    expect(view).toEqual({ secret: null, hint: `${s1.slice(0, 10)}…`, rotated_at: expect.any(String) });
    const row = await db().selectFrom('webhook_signing_secret').selectAll().where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    expect(row.ciphertext).not.toContain(s1.slice(6));
    expect(row.ciphertext).toMatch(/^v1\./);

    const second = await admin.client.trpcMutation('webhooks.rotateSecret');
    expect(second.status).toBe(200);
    const s2 = data(second).secret as string;
    expect(s2).not.toBe(s1);

    const audit = await db().selectFrom('audit_log').select(['action', 'actor_user_id']).where('account_id', '=', owner.accountId).where('action', '=', 'webhook.secret_rotated').orderBy('id').execute();
    expect(audit.map((a) => a.actor_user_id)).toEqual([owner.userId, admin.userId]);

    // A delivery now carries the newest secret's signature only.
    const path = '/hooks/rotated';
    const jobId = await finishedJob(owner.accountId, { webhookUrl: `${receiver.url}${path}` });
    await enqueueWebhook(db(), { jobId });
    await expect.poll(() => forPath(path).length, { timeout: 15_000 }).toBe(1);
    const hook = forPath(path)[0]!;
    const sig = hook.headers['x-mailvet-signature'] as string;
    expect(verifyWebhookSignature(s2, hook.body, sig)).toBe(true);
    expect(verifyWebhookSignature(s1, hook.body, sig)).toBe(false);
    expect(verifyWebhookSignature(legacy, hook.body, sig)).toBe(false);
  });

  it('refuses rotation to the signed-out and to plans without API access', async () => {
    const free = await ownerOn(stack.ts, 'free', 'secret-free');
    const r = await free.client.trpcMutation('webhooks.rotateSecret');
    expect(r.status).toBe(403);
    expect(r.body.error.data.appCode).toBe('PLAN_REQUIRED');
    await free.client.request('/api/auth/sign-out', { json: {} });
    expect((await free.client.trpcMutation('webhooks.rotateSecret')).status).toBe(401);
  });
});

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

describe('retention', () => {
  it('deletes deliveries older than 90 days with their attempts (a pending one that old is stuck: retries end within hours), keeps younger ones', async () => {
    const owner = await ownerOn(stack.ts, 'pro', 'hooks-retention');
    const DAY = 86_400_000;
    const add = async (ageDays: number, status: 'delivered' | 'failed' | 'pending') => {
      const d = await db()
        .insertInto('webhook_delivery')
        .values({ account_id: owner.accountId, event: 'job.completed', url: 'https://93.184.215.14/h', body: '{"note":"kept-or-not@example.com"}', status, attempts: 1, created_at: new Date(Date.now() - ageDays * DAY) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db().insertInto('webhook_attempt').values({ delivery_id: d.id, account_id: owner.accountId, attempt: 1, status_code: 200, latency_ms: 5, error: null }).execute();
      return d.id;
    };
    const old = [await add(100, 'delivered'), await add(95, 'failed'), await add(100, 'pending')];
    const kept = [await add(10, 'pending'), await add(10, 'delivered')];
    await purgeExpired({ db: db(), storageDir: stack.ts.server.deps.storageDir }, new Date());
    const left = (await db().selectFrom('webhook_delivery').select('id').where('account_id', '=', owner.accountId).execute()).map((r) => r.id);
    expect(left.sort()).toEqual([...kept].sort());
    expect(await db().selectFrom('webhook_attempt').select('id').where('delivery_id', 'in', old).execute()).toEqual([]);
  });
});

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

describe('the retry schedule', () => {
  it('retries a failing delivery for as long as the dashboard says, then delivers on the last attempt', { timeout: 60_000 }, async () => {
    const owner = await ownerOn(stack.ts, 'pro', 'hooks-backoff');
    const jobId = await finishedJob(owner.accountId, { webhookUrl: `${receiver.url}/backoff` });
    // Its own path's script: a delivery of an earlier test retried meanwhile cannot take one of these 500s (CI saw it delivered early).
    receiver.scriptFor('/backoff', ...Array.from({ length: MAX_WEBHOOK_ATTEMPTS - 1 }, () => 500));
    await enqueueWebhook(db(), { jobId });
    // After each failed attempt, the wait graphile-worker set (run_at − the attempt's log time); then the retry is let run at once.
    const waits: number[] = [];
    const waitAfter = async (n: number) => {
      const r = await sql<{ wait: number }>`
        select extract(epoch from j.run_at - a.created_at)::float8 as wait
        from graphile_worker._private_jobs j, webhook_attempt a
        where j.key = ${`webhook-deliver:${jobId}`} and j.attempts = ${n} and j.locked_by is null and a.delivery_id = ${jobId}::uuid and a.attempt = ${n}`.execute(db());
      return r.rows[0]?.wait;
    };
    for (let n = 1; n < MAX_WEBHOOK_ATTEMPTS; n++) {
      await expect.poll(() => waitAfter(n), { timeout: 10_000, interval: 50 }).toBeTypeOf('number');
      waits.push((await waitAfter(n))!);
      await sql`update graphile_worker._private_jobs set run_at = now() where key = ${`webhook-deliver:${jobId}`}`.execute(db());
    }
    await expect.poll(async () => (await db().selectFrom('webhook_delivery').select(['status', 'attempts']).where('id', '=', jobId).executeTakeFirstOrThrow()), { timeout: 10_000 }).toEqual({ status: 'delivered', attempts: MAX_WEBHOOK_ATTEMPTS });
    const hours = waits.reduce((a, b) => a + b, 0) / 3600;
    expect(Math.round(hours * 2) / 2).toBe(WEBHOOK_RETRY_WINDOW_HOURS);
  });
});
