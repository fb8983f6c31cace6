// `mailvet mcp` end to end: the real CLI spawned over stdio by the SDK's own Client, talking to a
// running Mailvet server (web + worker) over HTTP with a test key: every tool is called and its
// answer checked against the sandbox table; API errors come back as readable tool errors.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { FINISHED_JOB_STATUSES, jobStatusSchema } from '../../server/contracts/jobs';
import { ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const root = path.resolve(import.meta.dirname, '../..');
const ts = testServer({ role: 'all' });

async function connect(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'scripts/mailvet.mjs'), 'mcp'],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'mailvet-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

function structured(res: Awaited<ReturnType<Client['callTool']>>): any {
  expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
  return res.structuredContent;
}

describe('mailvet mcp', () => {
  it('lists the four tools and runs each against the server with a test key', { timeout: 90_000 }, async () => {
    const owner = await ownerOn(ts, 'pro', 'mcp');
    await ts.testDb.db.updateTable('account').set({ credits_balance: 1 }).where('id', '=', owner.accountId).execute();
    const created = await owner.client.trpcMutation('apiKeys.create', { name: 'assistant', test: true });
    const { client } = await connect({ MAILVET_URL: ts.url, MAILVET_API_KEY: created.body.result.data.api_key });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual(['get_job_results', 'get_job_status', 'start_bulk_job', 'validate_email']);

      const one = structured(await client.callTool({ name: 'validate_email', arguments: { email: 'catchall@sandbox.mailvet.dev' } }));
      expect(one).toMatchObject({ email: 'catchall@sandbox.mailvet.dev', result: 'risky', reason: 'catch_all', charged: false });

      const emails = ['valid@sandbox.mailvet.dev', 'invalid@sandbox.mailvet.dev', 'disposable@sandbox.mailvet.dev'];
      const job = structured(await client.callTool({ name: 'start_bulk_job', arguments: { emails } }));
      expect(job).toMatchObject({ total_emails: 3, status: 'pending', job_id: expect.any(String) });

      await expect
        .poll(async () => structured(await client.callTool({ name: 'get_job_status', arguments: { job_id: job.job_id } })).status, { timeout: 30_000, interval: 250 })
        .toBe('completed');
      const first = structured(await client.callTool({ name: 'get_job_results', arguments: { job_id: job.job_id, limit: 2 } }));
      expect(first.results).toHaveLength(2);
      expect(first.next_cursor).toEqual(expect.any(String));
      const rest = structured(await client.callTool({ name: 'get_job_results', arguments: { job_id: job.job_id, cursor: first.next_cursor } }));
      const all = [...first.results, ...rest.results].map((r: { email: string; result: string; reason: string }) => [r.email, r.result, r.reason]);
      expect(all.sort()).toEqual([
        ['disposable@sandbox.mailvet.dev', 'risky', 'disposable'],
        ['invalid@sandbox.mailvet.dev', 'invalid', 'mailbox_not_found'],
        ['valid@sandbox.mailvet.dev', 'valid', 'accepted'],
      ]);
      expect(rest.next_cursor).toBeNull();

      // Another account's job, or none: a tool error naming the code, not a crash.
      const missing = await client.callTool({ name: 'get_job_status', arguments: { job_id: '00000000-0000-4000-8000-000000000000' } });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toMatch(/NOT_FOUND \(HTTP 404\)/);
      // Bad arguments are refused by the tool's schema before any call.
      const bad = await client.callTool({ name: 'start_bulk_job', arguments: { emails: [] } });
      expect(bad.isError).toBe(true);

      const balance = await ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', owner.accountId).executeTakeFirstOrThrow();
      expect(balance.credits_balance).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('tells the assistant every status a job can end in, cancelled included, so polling stops', { timeout: 60_000 }, async () => {
    const owner = await ownerOn(ts, 'pro', 'mcp-final');
    const created = await owner.client.trpcMutation('apiKeys.create', { name: 'assistant', test: true });
    const { client } = await connect({ MAILVET_URL: ts.url, MAILVET_API_KEY: created.body.result.data.api_key });
    try {
      const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.description ?? '']));
      // Every status /v1 answers is named, and every final one is where polling is told to stop.
      for (const status of jobStatusSchema.options) expect(tools.get('get_job_status'), status).toMatch(new RegExp(`\\b${status}\\b`));
      const poll = tools.get('start_bulk_job')!.match(/Poll get_job_status until (.*?)(?:\.|$)/)?.[1] ?? '';
      for (const status of FINISHED_JOB_STATUSES) expect(poll, status).toMatch(new RegExp(`\\b${status}\\b`));
    } finally {
      await client.close();
    }
  });

  it('passes the key\'s scope refusal and a revoked key through as tool errors', { timeout: 60_000 }, async () => {
    const owner = await ownerOn(ts, 'starter', 'mcp-scoped');
    const created = (await owner.client.trpcMutation('apiKeys.create', { name: 'read only', test: true, scopes: ['results'] })).body.result.data;
    const { client } = await connect({ MAILVET_URL: ts.url, MAILVET_API_KEY: created.api_key });
    try {
      const refused = await client.callTool({ name: 'validate_email', arguments: { email: 'valid@sandbox.mailvet.dev' } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/SCOPE_REQUIRED \(HTTP 403\).*scope needed: validate/);
      await owner.client.trpcMutation('apiKeys.revoke', { id: created.id });
      const revoked = await client.callTool({ name: 'get_job_status', arguments: { job_id: '00000000-0000-4000-8000-000000000000' } });
      expect(JSON.stringify(revoked.content)).toMatch(/KEY_REVOKED \(HTTP 401\)/);
    } finally {
      await client.close();
    }
  });

  it('refuses to start without MAILVET_URL and MAILVET_API_KEY, saying which is missing', async () => {
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, [path.join(root, 'scripts/mailvet.mjs'), 'mcp'], { cwd: root, env: { PATH: process.env.PATH ?? '' }, input: '', encoding: 'utf8', timeout: 30_000 });
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/set MAILVET_URL and MAILVET_API_KEY/);
    expect(res.stdout).toBe('');
  });
});
