import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { signUpVerified, testServer, type Browserless } from '../helpers/test-server';

const ts = testServer();

async function accountOf(email: string): Promise<string> {
  const row = await ts.testDb.db
    .selectFrom('member')
    .innerJoin('user', 'user.id', 'member.userId')
    .select('member.organizationId')
    .where('user.email', '=', email)
    .where('member.role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return row.organizationId;
}

async function setPlan(email: string, plan: Plan): Promise<string> {
  const accountId = await accountOf(email);
  await ts.testDb.db.updateTable('account').set({ plan }).where('id', '=', accountId).execute();
  return accountId;
}

async function owner(email: string, plan: Plan = 'starter'): Promise<{ c: Browserless; accountId: string }> {
  const c = await signUpVerified(ts, { email });
  const accountId = await setPlan(email, plan);
  return { c, accountId };
}

const data = (r: { body: any }) => r.body.result?.data;

describe('API keys', () => {
  it('creates a key that is shown once, stores only its sha256 and prefix, and audits it', async () => {
    const { c, accountId } = await owner('keys-owner@example.com');
    const created = await c.trpcMutation('apiKeys.create', { name: '  Production server  ' });
    expect(created.status).toBe(200);
    const key = data(created);
    expect(key.api_key).toMatch(/^mv_live_[0-9A-Za-z]{43}$/);
    expect(key).toMatchObject({ name: 'Production server', status: 'active', last_used_at: null, revoked_at: null });
    expect(key.key_prefix).toBe(key.api_key.slice(0, 12));

    const row = await ts.testDb.db.selectFrom('api_key').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.account_id).toBe(accountId);
    expect(row.key_hash).toBe(createHash('sha256').update(key.api_key).digest('hex'));
    expect(row.key_prefix).toBe(key.key_prefix);
    expect(JSON.stringify(row)).not.toContain(key.api_key);

    const list = await c.trpcQuery('apiKeys.list');
    expect(list.status).toBe(200);
    expect(data(list)).toHaveLength(1);
    expect(data(list)[0]).toEqual({ id: key.id, name: 'Production server', key_prefix: key.key_prefix, created_at: key.created_at, last_used_at: null, revoked_at: null, status: 'active', is_test: false, scopes: ['validate', 'bulk', 'results', 'account'], rate_limit_per_second: null, creator_seatless: false });
    expect(JSON.stringify(list.body)).not.toContain(key.api_key);
    expect(JSON.stringify(list.body)).not.toContain(row.key_hash);

    const audit = await ts.testDb.db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId).where('action', '=', 'api_key.created').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.target_id).toBe(key.id);
    expect(JSON.stringify(audit[0]!.data)).not.toContain(key.api_key);
  });

  it('lists keys newest first', async () => {
    const { c } = await owner('keys-order@example.com');
    for (const name of ['first', 'second', 'third']) expect((await c.trpcMutation('apiKeys.create', { name })).status).toBe(200);
    expect(data(await c.trpcQuery('apiKeys.list')).map((k: { name: string }) => k.name)).toEqual(['third', 'second', 'first']);
  });

  it('requires a name, with the spec message', async () => {
    const { c } = await owner('keys-name@example.com');
    for (const input of [{ name: '' }, { name: '   ' }, {}]) {
      const res = await c.trpcMutation('apiKeys.create', input);
      expect(res.status).toBe(400);
      expect(res.body.error.data.zodIssues[0].message).toBe('Please enter a name for the API key');
    }
    const long = await c.trpcMutation('apiKeys.create', { name: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(await ts.testDb.db.selectFrom('api_key').select('id').execute()).not.toHaveLength(0); // other tests' keys only
  });

  it('refuses key creation on the free plan with 403 and creates nothing', async () => {
    const { c, accountId } = await owner('keys-free@example.com', 'free');
    const res = await c.trpcMutation('apiKeys.create', { name: 'Nope' });
    expect(res.status).toBe(403);
    expect(res.body.error.data.appCode).toBe('PLAN_REQUIRED');
    expect(res.body.error.message).toMatch(/Starter/);
    expect(await ts.testDb.db.selectFrom('api_key').select('id').where('account_id', '=', accountId).execute()).toHaveLength(0);
    const list = await c.trpcQuery('apiKeys.list');
    expect(list.status).toBe(200);
    expect(data(list)).toEqual([]);
  });

  it('revokes a key irreversibly: revoked_at is set once and audited once', async () => {
    const { c, accountId } = await owner('keys-revoke@example.com');
    const key = data(await c.trpcMutation('apiKeys.create', { name: 'Old' }));
    const revoked = await c.trpcMutation('apiKeys.revoke', { id: key.id });
    expect(revoked.status).toBe(200);
    expect(data(revoked)).toMatchObject({ id: key.id, status: 'revoked' });
    expect(data(revoked).revoked_at).toEqual(expect.any(String));

    const again = await c.trpcMutation('apiKeys.revoke', { id: key.id });
    expect(again.status).toBe(200);
    expect(data(again).revoked_at).toBe(data(revoked).revoked_at);
    expect(data(await c.trpcQuery('apiKeys.list'))[0]).toMatchObject({ status: 'revoked', revoked_at: data(revoked).revoked_at });
    const audit = await ts.testDb.db.selectFrom('audit_log').select('action').where('account_id', '=', accountId).where('target_id', '=', key.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['api_key.created', 'api_key.revoked']);
  });

  it('keeps accounts apart: another account can neither list nor revoke my keys', async () => {
    const a = await owner('keys-tenant-a@example.com');
    const b = await owner('keys-tenant-b@example.com');
    const key = data(await a.c.trpcMutation('apiKeys.create', { name: 'Mine' }));

    expect(data(await b.c.trpcQuery('apiKeys.list'))).toEqual([]);
    const steal = await b.c.trpcMutation('apiKeys.revoke', { id: key.id });
    expect(steal.status).toBe(404);
    expect(steal.body.error.data.appCode).toBe('NOT_FOUND');
    expect((await b.c.trpcMutation('apiKeys.revoke', { id: randomUUID() })).status).toBe(404);
    expect((await b.c.trpcMutation('apiKeys.revoke', { id: "'; drop table api_key;--" })).status).toBe(404);
    expect(data(await a.c.trpcQuery('apiKeys.list'))[0]).toMatchObject({ id: key.id, status: 'active' });
  });

  it('lets members see the keys but not create or revoke them', async () => {
    const a = await owner('keys-team-owner@example.com');
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 2 }).where('id', '=', a.accountId).execute(); // a seat for the member
    const key = data(await a.c.trpcMutation('apiKeys.create', { name: 'Shared' }));
    const m = await signUpVerified(ts, { email: 'keys-team-member@example.com' });
    const user = await ts.testDb.db.selectFrom('user').select('id').where('email', '=', 'keys-team-member@example.com').executeTakeFirstOrThrow();
    await ts.testDb.db.insertInto('member').values({ id: randomUUID(), organizationId: a.accountId, userId: user.id, role: 'member', createdAt: new Date() }).execute();

    expect(data(await m.trpcQuery('account.me')).accountId).toBe(a.accountId);
    const list = await m.trpcQuery('apiKeys.list');
    expect(list.status).toBe(200);
    expect(data(list).map((k: { id: string }) => k.id)).toEqual([key.id]);
    const create = await m.trpcMutation('apiKeys.create', { name: 'Member key' });
    expect(create.status).toBe(403);
    expect(create.body.error.data.appCode).toBe('PERMISSION_DENIED');
    expect((await m.trpcMutation('apiKeys.revoke', { id: key.id })).status).toBe(403);
    expect((await m.trpcQuery('apiKeys.webhookSecret')).status).toBe(403);
  });

  it('refuses signed-out callers', async () => {
    const { c } = await owner('keys-signed-out@example.com');
    await c.request('/api/auth/sign-out', { json: {} });
    expect((await c.trpcQuery('apiKeys.list')).status).toBe(401);
    expect((await c.trpcMutation('apiKeys.create', { name: 'x' })).status).toBe(401);
  });

  it('gives each account its own webhook signing secret, stored encrypted and shown once', async () => {
    const a = await owner('keys-whsec-a@example.com');
    const b = await owner('keys-whsec-b@example.com');
    const first = data(await a.c.trpcQuery('apiKeys.webhookSecret'));
    const again = data(await a.c.trpcQuery('apiKeys.webhookSecret'));
    const other = data(await b.c.trpcQuery('apiKeys.webhookSecret'));
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(again).toEqual({ secret: null, hint: `${(first.secret as string).slice(0, 10)}…`, rotated_at: first.rotated_at });
    expect(other.secret).toMatch(/^whsec_/);
    expect(other.secret).not.toBe(first.secret);
    const row = await ts.testDb.db.selectFrom('webhook_signing_secret').select('ciphertext').where('account_id', '=', a.accountId).executeTakeFirstOrThrow();
    expect(row.ciphertext).toMatch(/^v1\./);
    expect(row.ciphertext).not.toContain((first.secret as string).slice(6));
  });
});
