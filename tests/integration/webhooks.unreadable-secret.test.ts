// A delivery whose signing secret cannot be read (WEBHOOK_SECRET_KEY changed under stored secrets,
// README) failed every attempt before anything was logged: the delivery log said "Queued" with no
// error for the whole retry window, and after the last attempt the delivery stayed pending for ever.
// Each attempt is now a logged failure that says what to do (rotate the secret), and once the
// account rotates, the next attempt goes out signed with the new secret.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../server/features/webhooks/webhook-delivery';
import { finishedJob, insertJobUrlDelivery } from '../../server/features/webhooks/webhook-queue';
import { encryptSecret } from '../../server/features/webhooks/webhook-secret';
import { verifyWebhookV2 } from '../../server/features/webhooks/webhook-signing';
import { ownerOn } from '../helpers/accounts';
import { fileFixture } from '../helpers/file-fixture';
import { insertFinishedJob } from '../helpers/jobs';
import { testServer } from '../helpers/test-server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

const ts = testServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const receiver = fileFixture(startWebhookReceiver, (r) => r.close());
const db = () => ts.testDb.db;

describe('a delivery whose signing secret cannot be read', () => {
  it('is a logged failed attempt telling the account to rotate, failed at the last attempt, and delivered once rotated', { timeout: 20_000 }, async () => {
    const owner = await ownerOn(ts, 'pro', 'hooks-unreadable');
    // The secret stored under a key the server no longer has.
    await db().insertInto('webhook_signing_secret').values({ account_id: owner.accountId, ciphertext: encryptSecret(randomBytes(32), owner.accountId, 'whsec_lost'), hint: 'whsec_lost…' }).execute();
    const jobIds = [await insertFinishedJob(db(), owner.accountId, { webhookUrl: `${receiver.url}/unreadable` }), await insertFinishedJob(db(), owner.accountId, { webhookUrl: `${receiver.url}/unreadable-last` })];
    for (const id of jobIds) {
      const job = await finishedJob(db(), id);
      if (typeof job === 'string') throw new Error(job);
      await insertJobUrlDelivery(db(), job);
    }
    const [retried, last] = jobIds as [string, string];

    await expect(deliverWebhook(ts.server.deps, retried, { number: 1, max: 10 })).rejects.toThrow(/signing secret/);
    await expect(deliverWebhook(ts.server.deps, last, { number: 10, max: 10 })).rejects.toThrow(/signing secret/);
    const log = (await owner.client.trpcQuery('webhooks.deliveries', {})).body.result.data.items as Array<{ id: string; status: string; attempts: number; error: string | null }>;
    const byId = new Map(log.map((d) => [d.id, d]));
    expect(byId.get(retried)).toMatchObject({ status: 'pending', attempts: 1, error: expect.stringMatching(/signing secret could not be read.*Rotate/) });
    expect(byId.get(last)).toMatchObject({ status: 'failed', attempts: 10, error: expect.stringMatching(/signing secret could not be read.*Rotate/) });
    expect(receiver.received.filter((r) => r.path.startsWith('/unreadable'))).toHaveLength(0);

    // The account rotates: the next attempt is signed with the new secret and delivered.
    const secret = (await owner.client.trpcMutation('webhooks.rotateSecret')).body.result.data.secret as string;
    expect(await deliverWebhook(ts.server.deps, retried, { number: 2, max: 10 })).toEqual({ kind: 'delivered', status: 200 });
    const [hook] = receiver.received.filter((r) => r.path === '/unreadable');
    expect(verifyWebhookV2(secret, { rawBody: hook!.body, deliveryId: retried, header: hook!.headers['x-mailvet-signature-v2'] as string })).toBe(true);
  });
});
