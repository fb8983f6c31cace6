// Each account's webhook signing secret (split from webhooks.delivery.test.ts, assertions unchanged):
// it rotates for owners and admins only, is shown once and stored encrypted, and the old secret
// stops signing at once.
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../server/features/webhooks/webhook-signing';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { joinAs, ownerOn } from '../helpers/accounts';
import { data, webhookDeliveryStack } from '../helpers/webhook-delivery-stack';

const { stack, receiver, db, finishedJob, forPath } = webhookDeliveryStack();

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
