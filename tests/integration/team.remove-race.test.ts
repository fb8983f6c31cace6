// Removing a member while they are creating an API key: the removal revokes the keys they made in
// the account, so a key whose creation was under way when the removal committed must not come out
// of it working (a removed admin holding a live key to the team's credits and data).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { joinAs, ownerOn, uniqueEmail } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();
const db = () => ts.testDb.db;

/** Waits until a statement matching `like` is waiting on a lock (another session holds it). */
async function waitingOnLock(like: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const rows = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike ${like}`.execute(db());
    if (Number(rows.rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no statement like ${like} waited on a lock`);
}

/**
 * Holds a row of `table` locked (SELECT … FOR UPDATE in a transaction of its own) until `release()`,
 * so a request that needs it waits at a known point; resolves once the lock is taken.
 */
async function holdRow(table: 'account' | 'organization', id: string): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = db().transaction().execute(async (trx) => {
    await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
    locked();
    await held;
  });
  await isLocked;
  return {
    async release() {
      release();
      await done;
    },
  };
}

/** A Business owner, an admin of theirs, and the admin's member row. */
async function ownerAndAdmin(ownerTag: string, adminTag: string) {
  const owner = await ownerOn(ts, 'business', ownerTag);
  const admin = await joinAs(ts, owner, 'admin', adminTag);
  const { id: memberId } = await db().selectFrom('member').select('id').where('organizationId', '=', owner.accountId).where('userId', '=', admin.userId).executeTakeFirstOrThrow();
  return { owner, admin, memberId };
}

describe('removing an admin while they create an API key', () => {
  it('leaves them no working key when their creation was admitted first', { timeout: 60_000 }, async () => {
    const { owner, admin, memberId } = await ownerAndAdmin('race-owner', 'race-admin');

    // Another key creation of the account is under way (it holds the account row), so the admin's
    // create, already admitted as admin, waits; meanwhile the owner removes the admin.
    const holder = await holdRow('account', owner.accountId);
    const creating = admin.client.trpcMutation('apiKeys.create', { name: 'parting gift' });
    await waitingOnLock('%from "account"%for update%');
    const removing = owner.client.trpcMutation('team.removeMember', { memberId });
    // Give the removal every chance to finish before the held creation goes on.
    await Promise.race([removing, new Promise((r) => setTimeout(r, 1000))]);
    await holder.release();
    const [created, removed] = await Promise.all([creating, removing]);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const gone = await db().selectFrom('member').select('id').where('id', '=', memberId).executeTakeFirst();
    expect(gone).toBeUndefined();
    if (created.status === 200) {
      // The key came out of a creation that began before the removal: it must be revoked with the rest.
      const key = created.body.result.data.api_key as string;
      const res = await fetch(`${ts.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('KEY_REVOKED');
    } else {
      expect(created.status).toBe(403);
    }
    const live = await db().selectFrom('api_key').select('id').where('account_id', '=', owner.accountId).where('created_by', '=', admin.userId).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
  });

  it('refuses the key when the removal got there first (403, no key made)', { timeout: 60_000 }, async () => {
    const { owner, admin, memberId } = await ownerAndAdmin('race-owner2', 'race-admin2');
    const holder = await holdRow('account', owner.accountId);
    const removing = owner.client.trpcMutation('team.removeMember', { memberId });
    await waitingOnLock('%from "account"%for update%');
    const creating = admin.client.trpcMutation('apiKeys.create', { name: 'parting gift' });
    await new Promise((r) => setTimeout(r, 300));
    await holder.release();
    const [created, removed] = await Promise.all([creating, removing]);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(created.status, JSON.stringify(created.body)).toBe(403);
    expect(created.body.error.message).toBe('Only the account owner or an admin can manage API keys.');
    const keys = await db().selectFrom('api_key').select('id').where('account_id', '=', owner.accountId).where('created_by', '=', admin.userId).execute();
    expect(keys).toEqual([]);
  });
});

describe('removing an admin while they send an invitation', () => {
  it('withdraws the invitation they were sending, so they cannot come back through it', { timeout: 60_000 }, async () => {
    const { owner, admin, memberId } = await ownerAndAdmin('inv-race-owner', 'inv-race-admin');
    const second = uniqueEmail('inv-race-second');

    // The invitation's row is held up on its way in (its organization row is locked elsewhere), after
    // the admin's invitation was admitted and checked; meanwhile the owner removes the admin.
    const holder = await holdRow('organization', owner.accountId);
    const inviting = admin.client.trpcMutation('team.invite', { email: second, role: 'admin' });
    await waitingOnLock('%insert into "invitation"%');
    const removing = owner.client.trpcMutation('team.removeMember', { memberId });
    await Promise.race([removing, new Promise((r) => setTimeout(r, 1000))]);
    await holder.release();
    const [, removed] = await Promise.all([inviting, removing]);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const pending = await db().selectFrom('invitation').select(['id', 'email']).where('organizationId', '=', owner.accountId).where('status', '=', 'pending').execute();
    expect(pending).toEqual([]);
  });
});
