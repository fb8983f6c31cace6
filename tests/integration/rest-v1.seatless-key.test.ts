// A member without a seat (the plan fell below the team's size: membership.ts) works in no part of
// that account — and that holds for /v1 too: the keys they created there are refused while they have
// no seat (403 PLAN_REQUIRED, saying why), and work again once a seat is theirs. Keys of seated people
// (the owner's) are untouched.
import { describe, expect, it } from 'vitest';
import { joinAs, ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();

async function v1(key: string, path: string) {
  const res = await fetch(`${ts.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function keyOf(client: Awaited<ReturnType<typeof ownerOn>>['client'], name: string, test = false): Promise<string> {
  const created = await client.trpcMutation('apiKeys.create', { name, test });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.result.data.api_key as string;
}

describe('/v1 keys of a member who lost their seat', () => {
  it('refuses the seatless creator’s keys until a seat is theirs again; the owner’s keep working', async () => {
    const owner = await ownerOn(ts, 'business', 'seat-owner');
    const admin = await joinAs(ts, owner, 'admin', 'seat-admin');
    const ownerKey = await keyOf(owner.client, 'owner key');
    const adminKey = await keyOf(admin.client, 'admin key');
    const adminTestKey = await keyOf(admin.client, 'admin test key', true);
    expect((await v1(adminKey, '/account')).status).toBe(200);

    // The plan falls to Starter (1 user): the owner keeps the seat, the admin has none.
    await ts.testDb.db.updateTable('account').set({ plan: 'starter', team_member_limit: 1 }).where('id', '=', owner.accountId).execute();
    expect((await admin.client.trpcQuery('account.me')).body.result.data.accountId).not.toBe(owner.accountId);

    for (const key of [adminKey, adminTestKey]) {
      for (const path of ['/account', '/jobs']) {
        const refused = await v1(key, path);
        expect(refused.status, path).toBe(403);
        expect(refused.body).toMatchObject({
          code: 'PLAN_REQUIRED',
          message: 'The person who created this API key has no seat in this team: your current plan allows 1 team member(s) total. Upgrade the plan or remove a member to use this key again.',
        });
      }
    }
    const validate = await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@example.com' }) });
    expect(validate.status).toBe(403);
    expect((await v1(ownerKey, '/account')).status).toBe(200);
    // The owner's API Keys page says which keys are refused, and why, rather than show them all Active alone.
    const listed = (await owner.client.trpcQuery('apiKeys.list')).body.result.data as Array<{ name: string; status: string; creator_seatless: boolean }>;
    expect(listed.map((k) => [k.name, k.status, k.creator_seatless]).sort()).toEqual([
      ['admin key', 'active', true],
      ['admin test key', 'active', true],
      ['owner key', 'active', false],
    ]);

    // A seat again (an upgrade): the same keys work.
    await ts.testDb.db.updateTable('account').set({ plan: 'pro', team_member_limit: 2 }).where('id', '=', owner.accountId).execute();
    expect((await v1(adminKey, '/account')).status).toBe(200);
    expect((await v1(adminTestKey, '/jobs')).status).toBe(200);
    const again = (await owner.client.trpcQuery('apiKeys.list')).body.result.data as Array<{ creator_seatless: boolean }>;
    expect(again.every((k) => !k.creator_seatless)).toBe(true);
  });
});
