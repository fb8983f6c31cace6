// An admin who deletes their user leaves every team they were in, as one who is removed or leaves
// does: the webhook endpoints they added there must stop receiving the account's events (a schedule
// run's changed addresses among them). Removal and leaving deleted them; deleting the user only
// revoked their API keys, and their endpoints went on receiving every event, their creator gone.
import { describe, expect, it } from 'vitest';
import { ENDPOINT_DELETED_ERROR } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { joinAs, ownerOn } from '../helpers/accounts';
import { insertFinishedJob } from '../helpers/jobs';
import { testServer } from '../helpers/test-server';

const ts = testServer();
const db = () => ts.testDb.db;

describe('webhook endpoints of an admin who deletes their user', () => {
  it('are deleted with their pending deliveries stopped and audited; endpoints others added keep receiving', async () => {
    const owner = await ownerOn(ts, 'enterprise', 'hooks-owner');
    const admin = await joinAs(ts, owner, 'admin', 'hooks-deleter');
    const add = async (p: typeof owner, url: string) => {
      const res = await p.client.trpcMutation('webhooks.createEndpoint', { url, events: ['job.completed', 'schedule.run_completed'] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.data.id as string;
    };
    const theirs = await add(admin, 'https://93.184.215.14/departed-admin');
    const owners = await add(owner, 'https://93.184.215.15/crm');
    const waiting = await db()
      .insertInto('webhook_delivery')
      .values({ account_id: owner.accountId, endpoint_id: theirs, event: 'job.completed', url: 'https://93.184.215.14/departed-admin', body: '{}', attempts: 2, last_error: 'receiver answered HTTP 503' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const deleted = await admin.client.trpcMutation('account.deleteAccount', { confirmation: 'DELETE', password: 'secret123' });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    const left = (await owner.client.trpcQuery('webhooks.endpoints')).body.result.data as Array<{ id: string }>;
    expect(left.map((e) => e.id)).toEqual([owners]);
    expect(await db().selectFrom('webhook_delivery').select(['status', 'last_error']).where('id', '=', waiting.id).executeTakeFirstOrThrow()).toEqual({ status: 'failed', last_error: ENDPOINT_DELETED_ERROR });
    const audit = await db().selectFrom('audit_log').select(['target_id', 'data']).where('account_id', '=', owner.accountId).where('action', '=', 'webhook.endpoint_deleted').execute();
    expect(audit).toEqual([{ target_id: theirs, data: expect.objectContaining({ reason: 'user_deleted', url: 'https://93.184.215.14/departed-admin' }) }]);

    // The account's next event goes to the owner's endpoint only.
    const job = await insertFinishedJob(db(), owner.accountId);
    await enqueueWebhook(db(), { jobId: job });
    const sent = await db().selectFrom('webhook_delivery').select('url').where('account_id', '=', owner.accountId).where('job_id', '=', job).execute();
    expect(sent.map((d) => d.url)).toEqual(['https://93.184.215.15/crm']);
  });
});
