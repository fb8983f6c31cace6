// POST /v1/bulk with a CSV as multipart/form-data, sent the way an HTML form sends it: a form with an
// optional "webhook_url" input left empty still submits the field, as an empty string. That is no
// webhook, not a bad URL (400) — and on a plan without job webhooks not a 403 PLAN_REQUIRED either.
import { describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

async function upload(key: string, webhookUrl: string) {
  const form = new FormData();
  form.append('file', new Blob(['email\nvalid@sandbox.mailvet.dev\n'], { type: 'text/csv' }), 'list.csv');
  form.append('webhook_url', webhookUrl);
  const res = await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const webhookOf = async (jobId: string) => (await ts.testDb.db.selectFrom('validation_job').select('webhook_url').where('id', '=', jobId).executeTakeFirstOrThrow()).webhook_url;

describe('POST /v1/bulk as an HTML form', () => {
  it('takes an empty webhook_url field as no webhook, on any plan; a filled one is still used', async () => {
    const starter = await ownerOn(ts, 'starter', 'form-starter');
    const starterKey = (await starter.client.trpcMutation('apiKeys.create', { name: 'form', test: true })).body.result.data.api_key as string;
    for (const empty of ['', '   ']) {
      const res = await upload(starterKey, empty);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await webhookOf(res.body.job_id)).toBeNull();
    }
    expect((await upload(starterKey, 'http://127.0.0.1:9/hook')).body).toMatchObject({ code: 'PLAN_REQUIRED' });

    const pro = await ownerOn(ts, 'pro', 'form-pro');
    const proKey = (await pro.client.trpcMutation('apiKeys.create', { name: 'form', test: true })).body.result.data.api_key as string;
    const blank = await upload(proKey, '');
    expect(blank.status, JSON.stringify(blank.body)).toBe(200);
    expect(await webhookOf(blank.body.job_id)).toBeNull();
    const hooked = await upload(proKey, 'http://127.0.0.1:9/hook');
    expect(hooked.status, JSON.stringify(hooked.body)).toBe(200);
    expect(await webhookOf(hooked.body.job_id)).toBe('http://127.0.0.1:9/hook');
  });
});
