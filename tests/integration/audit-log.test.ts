// The audit trail a person can read: owners and admins see their account's log (keys, members,
// invitations, plan changes, jobs, schedules, settings), newest first, filtered and paginated;
// members are refused by the server; no other account's entry ever shows.
import { describe, expect, it } from 'vitest';
import { joinAs, ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();

type Entry = { action: string; label: string; category: string | null; actor: { email: string | null; kind: string }; details: Array<{ key: string; value: string }> };

describe('account.auditLog', () => {
  it('shows owners and admins who did what in their account, refuses members, and never shows another account', async () => {
    const owner = await ownerOn(ts, 'business', 'audit-owner');
    const admin = await joinAs(ts, owner, 'admin', 'audit-admin');
    const member = await joinAs(ts, owner, 'member', 'audit-member');
    const other = await ownerOn(ts, 'business', 'audit-other');

    expect((await owner.client.trpcMutation('apiKeys.create', { name: 'CRM sync' })).status).toBe(200);
    const made = await admin.client.trpcMutation('schedules.create', { name: 'Newsletter', emails: ['a@example.com'] });
    expect(made.status).toBe(200);
    expect((await admin.client.trpcMutation('schedules.setActive', { scheduleId: made.body.result.data.id, isActive: false })).status).toBe(200);
    expect((await owner.client.trpcMutation('account.profile.update', { full_name: 'Owner Renamed', company_name: 'Acme' })).status).toBe(200);
    expect((await other.client.trpcMutation('apiKeys.create', { name: 'Not yours' })).status).toBe(200);

    const all = await owner.client.trpcQuery('account.auditLog', {});
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const items = all.body.result.data.items as Entry[];
    const labels = items.map((e) => e.label);
    expect(labels.slice(0, 4)).toEqual(['Profile updated', 'Schedule switched off', 'Schedule created', 'API key created']);
    expect(labels).toEqual(expect.arrayContaining(['Invitation sent', 'Invitation accepted', 'Account created']));
    expect(items.find((e) => e.label === 'Schedule created')!.actor.email).toBe(admin.email);
    expect(items.find((e) => e.label === 'API key created')!.details).toEqual(expect.arrayContaining([{ key: 'name', value: 'CRM sync' }]));
    expect(JSON.stringify(items)).not.toContain('Not yours');

    // Admins read it too; members are refused by the server.
    expect((await admin.client.trpcQuery('account.auditLog', {})).body.result.data.total).toBe(all.body.result.data.total);
    const refused = await member.client.trpcQuery('account.auditLog', {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.appCode).toBe('PERMISSION_DENIED');

    // Filters: by category, by person.
    const schedules = (await owner.client.trpcQuery('account.auditLog', { category: 'schedules' })).body.result.data;
    expect(schedules.items.map((e: Entry) => e.action)).toEqual(['schedule.deactivated', 'schedule.created']);
    const team = (await owner.client.trpcQuery('account.auditLog', { category: 'team' })).body.result.data;
    expect(team.items.every((e: Entry) => e.action.startsWith('team.'))).toBe(true);
    expect(team.items.length).toBe(4); // two invitations sent, two accepted
    const byAdmin = (await owner.client.trpcQuery('account.auditLog', { actorUserId: admin.userId })).body.result.data;
    expect(byAdmin.items.every((e: Entry) => e.actor.email === admin.email)).toBe(true);
    expect(byAdmin.actors.map((a: { email: string }) => a.email)).toEqual(expect.arrayContaining([owner.email, admin.email]));
    // Another account's user as the filter finds nothing here.
    expect((await owner.client.trpcQuery('account.auditLog', { actorUserId: other.userId })).body.result.data.total).toBe(0);

    // Pages.
    const p1 = (await owner.client.trpcQuery('account.auditLog', { pageSize: 2, page: 1 })).body.result.data;
    const p2 = (await owner.client.trpcQuery('account.auditLog', { pageSize: 2, page: 2 })).body.result.data;
    expect(p1.items).toHaveLength(2);
    expect(p1.pages).toBe(Math.ceil(all.body.result.data.total / 2));
    expect(p2.items.map((e: Entry) => e.label)).toEqual(labels.slice(2, 4));
  });

  it('refuses bad input with 400', async () => {
    const owner = await ownerOn(ts, 'free', 'audit-bad');
    for (const input of [{ page: 0 }, { pageSize: 1000 }, { category: 'nope' }, { page: 'x' }, { actorUserId: '' }]) {
      const res = await owner.client.trpcQuery('account.auditLog', input);
      expect(res.status, JSON.stringify(input)).toBe(400);
    }
  });
});
