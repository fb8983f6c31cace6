// How long a failing webhook delivery is retried: graphile-worker's backoff over MAX_WEBHOOK_ATTEMPTS
// spans what the dashboard and the docs say (WEBHOOK_RETRY_WINDOW_HOURS); the last attempt still
// delivers (split from webhooks.delivery.test.ts, assertions unchanged).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { enqueueWebhook, MAX_WEBHOOK_ATTEMPTS } from '../../server/features/webhooks/webhook-queue';
import { WEBHOOK_RETRY_WINDOW_HOURS } from '../../server/contracts/webhooks';
import { ownerOn } from '../helpers/accounts';
import { webhookDeliveryStack } from '../helpers/webhook-delivery-stack';

const { stack, receiver, db, finishedJob } = webhookDeliveryStack();

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
