// The invitation mail goes only for an invitation that was really kept. An invite is checked, stored
// by better-auth, then checked again under the team's lock (the cap on waiting invitations, the
// inviter still an owner or admin): one refused at that last step was deleted, yet its mail, with the
// accept link and the account's name, had already gone out. The invitee opened a link that said
// "no longer valid" from a team that had answered its admin "refused".
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerOn, uniqueEmail } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();
const db = () => ts.testDb.db;
const mailsTo = async (to: string) => (await db().selectFrom('dev_outbox').select('id').where('to', '=', to).where('subject', 'like', "You're invited%").execute()).length;

type CreateInvitation = (typeof ts.server.deps.auth.api)['createInvitation'];
let restore: (() => void) | null = null;
/** Runs `after` each time better-auth has stored an invitation (and, before the fix, mailed it), before the invite's last check. */
function afterBetterAuthStores(after: () => Promise<void>) {
  const api = ts.server.deps.auth.api as { createInvitation: CreateInvitation };
  const real = api.createInvitation;
  api.createInvitation = (async (...args: Parameters<CreateInvitation>) => {
    const stored = await real(...args);
    await after();
    return stored;
  }) as CreateInvitation;
  restore = () => (api.createInvitation = real);
}
afterEach(() => {
  restore?.();
  restore = null;
});

describe('the invitation mail', () => {
  it('is not sent for an invitation refused after better-auth stored it (the cap filled meanwhile)', async () => {
    const o = await ownerOn(ts, 'pro', 'mail-cap'); // at most 2 invitations waiting
    const first = uniqueEmail('kept');
    expect((await o.client.trpcMutation('team.invite', { email: first })).status).toBe(200);
    expect(await mailsTo(first)).toBe(1);
    // Another admin's invitation, sent a moment earlier, is stored meanwhile: the cap is full, this one is refused.
    const other = uniqueEmail('other-admin');
    afterBetterAuthStores(async () => {
      const now = new Date();
      await db()
        .insertInto('invitation')
        .values({ id: randomUUID(), organizationId: o.accountId, email: other, role: 'member', status: 'pending', expiresAt: new Date(now.getTime() + 3_600_000), inviterId: o.userId, createdAt: new Date(now.getTime() - 500) } as never)
        .execute();
    });
    const late = uniqueEmail('refused');
    const res = await o.client.trpcMutation('team.invite', { email: late });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('2 invitation(s) are already waiting. Cancel one, or wait until one is accepted, before inviting more.');
    expect(await db().selectFrom('invitation').select('id').where('email', '=', late).execute()).toEqual([]);
    expect(await mailsTo(late)).toBe(0);
  });

  it('is not sent for an invitation whose inviter was removed while it was being sent', async () => {
    const o = await ownerOn(ts, 'business', 'mail-removed');
    // The inviter's admin role is gone by the time the invitation is kept (as a removal does).
    afterBetterAuthStores(async () => {
      await db().updateTable('member').set({ role: 'member' }).where('organizationId', '=', o.accountId).where('userId', '=', o.userId).execute();
    });
    const target = uniqueEmail('orphan');
    const res = await o.client.trpcMutation('team.invite', { email: target });
    expect(res.status).toBe(403);
    expect(await mailsTo(target)).toBe(0);
  });

  it('goes to every invitation kept of many sent at once, and to none refused', async () => {
    const o = await ownerOn(ts, 'pro', 'mail-race');
    const emails = Array.from({ length: 6 }, () => uniqueEmail('race'));
    const results = await Promise.all(emails.map((email) => o.client.trpcMutation('team.invite', { email })));
    for (const [i, r] of results.entries()) expect(await mailsTo(emails[i]!), `${emails[i]} answered ${r.status}`).toBe(r.status === 200 ? 1 : 0);
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
  });
});
