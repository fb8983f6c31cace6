// An account's webhook endpoints hear of every job, test-key (sandbox) jobs included, and a job's
// body must say which it is: a sandbox job is readable only with a test key (a live key gets 404),
// so a receiver that fetches results with its live key, or books them as real, must be able to tell.
// The job shape says it (`test`), in GET /v1/jobs/{id} and in the webhook bodies alike.
import { describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { webhookBodyProblems } from '../helpers/openapi-webhooks';
import { testServer } from '../helpers/test-server';

// Web only: no worker, so the jobs are still pending when they are cancelled.
const ts = testServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

async function v1(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ts.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('test-key jobs in the job shape and the webhooks', () => {
  it('say test: true (live jobs test: false) in GET /v1/jobs/{id}, the list, the cancel answer and every webhook body', async () => {
    const owner = await ownerOn(ts, 'enterprise', 'test-flag');
    expect((await owner.client.trpcMutation('webhooks.createEndpoint', { url: 'http://127.0.0.1:9/hooks', events: ['job.cancelled'] })).status).toBe(200);
    const key = async (test: boolean) => (await owner.client.trpcMutation('apiKeys.create', { name: test ? 'test' : 'live', test })).body.result.data.api_key as string;
    const [testKey, liveKey] = [await key(true), await key(false)];

    for (const [k, test] of [[testKey, true], [liveKey, false]] as const) {
      const started = await v1(k, 'POST', '/bulk', { emails: ['valid@sandbox.mailvet.dev'] });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const id = started.body.job_id as string;
      expect((await v1(k, 'GET', `/jobs/${id}`)).body).toMatchObject({ job_id: id, test });
      expect((await v1(k, 'GET', '/jobs')).body.jobs[0]).toMatchObject({ job_id: id, test });
      expect((await v1(k, 'POST', `/jobs/${id}/cancel`)).body.job).toMatchObject({ job_id: id, status: 'cancelled', test });
      const delivery = await ts.testDb.db.selectFrom('webhook_delivery').select('body').where('job_id', '=', id).executeTakeFirstOrThrow();
      expect(JSON.parse(delivery.body)).toMatchObject({ event: 'job.cancelled', job_id: id, test });
      expect(webhookBodyProblems('job.cancelled', delivery.body)).toEqual([]);
    }
  });
});
