// The webhook delivery log is kept 90 days, like results (split from webhooks.delivery.test.ts,
// assertions unchanged).
import { describe, expect, it } from 'vitest';
import { purgeExpired } from '../../server/features/retention/retention.service';
import { ownerOn } from '../helpers/accounts';
import { webhookDeliveryStack } from '../helpers/webhook-delivery-stack';

const { stack, db } = webhookDeliveryStack();

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
