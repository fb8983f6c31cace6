// Work done through /v1 shows in the audit log as the API key's, and names the key: an owner who
// sees a job they did not start must be able to tell which key started (or cancelled) it, to revoke
// that one. Before, an API job was logged as a "user" with no user (shown as "Deleted user").
import { describe, expect, it } from 'vitest';
import { ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();

type Entry = { action: string; actor: { kind: string; user_id: string | null }; target: { id: string | null }; details: Array<{ key: string; value: string }> };

describe('the audit log of /v1 work', () => {
  it('records bulk jobs and cancels as the API key’s, with its prefix and name', async () => {
    const owner = await ownerOn(ts, 'business', 'audit-api');
    const created = (await owner.client.trpcMutation('apiKeys.create', { name: 'CRM sync', test: true })).body.result.data;
    const headers = { authorization: `Bearer ${created.api_key}`, 'content-type': 'application/json' };
    const started = (await (await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers, body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev'] }) })).json()) as { job_id: string };
    expect((await fetch(`${ts.url}/v1/jobs/${started.job_id}/cancel`, { method: 'POST', headers: { authorization: headers.authorization } })).status).toBe(200);

    const items = (await owner.client.trpcQuery('account.auditLog', { category: 'jobs' })).body.result.data.items as Entry[];
    for (const action of ['job.created', 'job.cancelled']) {
      const entry = items.find((e) => e.action === action && e.target.id === started.job_id);
      expect(entry, action).toBeDefined();
      expect(entry!.actor, action).toMatchObject({ kind: 'api_key', user_id: null });
      expect(entry!.details, action).toEqual(expect.arrayContaining([
        { key: 'api_key', value: `${created.key_prefix}…` },
        { key: 'api_key_name', value: 'CRM sync' },
      ]));
    }
  });
});
