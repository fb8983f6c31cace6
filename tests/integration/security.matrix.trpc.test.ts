// The security matrix, tRPC: every procedure (the matrix's world, callers and statuses: tests/helpers/security-matrix.ts).
import { describe, expect, it } from 'vitest';
import { createContextInner } from '../../server/trpc/context';
import { appRouter, createCaller } from '../../server/trpc/app-router';
import { uniqueEmail } from '../helpers/accounts';
import { A, B, CALLERS, clientOf, everyone, expected, fx, inAccount, leaks, managers, outsider, securityMatrixWorld, snapshotA, ts, type Caller, type Statuses, type Walker } from '../helpers/security-matrix';

securityMatrixWorld();

interface TrpcEntry {
  input?: (who: Caller) => unknown | Promise<unknown>;
  expect: Statuses;
  /** Why the shape is what it is, when it is not obvious. */
  note?: string;
}

// ---- every tRPC procedure ------------------------------------------------------------------
const TRPC: Record<string, TrpcEntry> = {
  'account.me': { expect: everyone() },
  'account.overview': { input: () => ({}), expect: everyone() },
  'account.profile.get': { expect: everyone() },
  'account.profile.update': { input: () => ({ full_name: 'Matrix Person', company_name: 'Matrix' }), expect: everyone(), note: 'own profile only' },
  'account.auditLog': { input: () => ({}), expect: managers() },
  'account.accounts': { expect: everyone(), note: "the caller's own seated memberships only" },
  'account.switch': { input: () => ({ accountId: A.owner.accountId }), expect: inAccount(), note: "this session's own active account; outsiders get 404 and stay where they were" },
  'account.reopen': { expect: everyone(), note: 'a member with an account: nothing happens' },
  'account.deleteAccount': { input: () => ({ confirmation: 'DELETE', password: 'not-the-password' }), expect: everyone(400) },
  'apiKeys.list': { expect: everyone() },
  'apiKeys.create': { input: () => ({ name: 'Matrix key' }), expect: managers() },
  'apiKeys.revoke': { input: async () => ({ id: await fx.apiKey() }), expect: managers(404) },
  'apiKeys.webhookSecret': { expect: managers() },
  'jobs.list': { input: () => ({}), expect: everyone() },
  'jobs.byId': { input: async () => ({ jobId: await fx.job() }), expect: inAccount() },
  'jobs.results': { input: async () => ({ jobId: await fx.job(), page: 1, pageSize: 50 }), expect: inAccount() },
  'jobs.cancel': { input: async () => ({ jobId: await fx.runningJob() }), expect: inAccount(), note: 'members work with jobs: any of them may stop a running one' },
  'jobs.breakdown': { input: async () => ({ jobId: await fx.job() }), expect: inAccount() },
  'jobs.onChange': { expect: everyone(), note: 'subscription: checked in-process (200 = the stream starts)' },
  'schedules.list': { expect: everyone() },
  'schedules.create': { input: () => ({ name: 'Matrix schedule', emails: ['m@example.com'] }), expect: managers() },
  'schedules.setActive': { input: async () => ({ scheduleId: await fx.schedule(), isActive: false }), expect: managers(404) },
  'schedules.delete': { input: async () => ({ scheduleId: await fx.schedule() }), expect: managers(404) },
  'schedules.changes': { input: async () => ({ scheduleId: await fx.schedule() }), expect: inAccount() },
  'schedules.parseCsv': { input: () => ({ filename: 'list.csv', content: 'email\nx@example.com\n' }), expect: everyone() },
  'team.members': { expect: everyone() },
  'team.invitations': { expect: managers() },
  'team.seats': { expect: everyone() },
  'team.invite': { input: () => ({ email: uniqueEmail('matrix-invite'), role: 'member' }), expect: managers() },
  'team.cancelInvitation': { input: async () => ({ invitationId: await fx.invitation() }), expect: managers(404) },
  'team.removeMember': { input: async () => ({ memberId: await fx.extraMember() }), expect: managers(404) },
  'team.invitationPreview': { input: async () => ({ invitationId: await fx.invitation() }), expect: { anonymous: 200, member: 200, admin: 200, owner: 200, foreign: 200 }, note: 'public: the id from the mail is the secret' },
  'team.leave': {
    input: (who) => ({ accountId: who === 'member' || who === 'admin' ? B.accountId : A.owner.accountId }),
    expect: { anonymous: 401, member: 404, admin: 404, owner: 403, foreign: 404 },
    note: "A's owner cannot leave A; nobody leaves an account they are not in (A's member and admin are asked about B's: their leaving A for real is team.roles.test.ts's)",
  },
  'team.acceptInvitation': { input: async () => ({ invitationId: await fx.invitation() }), expect: { anonymous: 401, member: 403, admin: 403, owner: 403, foreign: 403 }, note: 'only the invited address may accept' },
  'branding.current': { expect: everyone() },
  'branding.settings': { expect: everyone() },
  'branding.update': { input: () => ({ brandColor: '#112233' }), expect: { anonymous: 401, member: 403, admin: 403, owner: 403, foreign: 403 }, note: 'Pro: white-label needs Business (members: role)' },
  'branding.setDomain': { input: () => ({ domain: 'matrix.brand.test' }), expect: { anonymous: 401, member: 403, admin: 403, owner: 403, foreign: 403 }, note: 'Pro: white-label needs Business' },
  'branding.verifyDomain': { expect: { anonymous: 401, member: 403, admin: 403, owner: 403, foreign: 403 }, note: 'Pro: white-label needs Business' },
  'reporting.analytics': { input: () => ({}), expect: everyone(), note: "Pro and up; B's report never holds A's schedules or jobs" },
  'webhooks.rotateSecret': { expect: managers(), note: "foreign rotates B's own secret" },
  'webhooks.endpoints': { expect: managers() },
  'webhooks.createEndpoint': { input: () => ({ url: 'https://93.184.215.14/matrix-hook', events: ['job.completed'] }), expect: { anonymous: 401, member: 403, admin: 403, owner: 403, foreign: 403 }, note: 'Pro: account webhooks need Enterprise (members: role)' },
  'webhooks.updateEndpoint': { input: async () => ({ id: await fx.webhookEndpoint(), events: ['job.failed'] }), expect: { anonymous: 401, member: 403, admin: 403, owner: 403, foreign: 403 }, note: 'Pro: account webhooks need Enterprise' },
  'webhooks.deleteEndpoint': { input: async () => ({ id: await fx.webhookEndpoint() }), expect: managers(404), note: 'no plan gate: a downgraded account can clean up' },
  'webhooks.deliveries': { input: () => ({}), expect: managers() },
  'webhooks.delivery': { input: async () => ({ id: await fx.webhookDelivery() }), expect: managers(404) },
  'webhooks.replay': { input: async () => ({ id: await fx.webhookDelivery() }), expect: managers(404) },
  // billing last: the owner's pass pays, cancels and refunds (A ends on Free).
  'billing.config': { expect: everyone() },
  'billing.currency': { expect: { anonymous: 200, member: 200, admin: 200, owner: 200, foreign: 200 }, note: 'public: pricing pages ask it too' },
  'billing.overview': { expect: everyone() },
  'billing.payments': { expect: everyone() },
  'billing.checkout': { input: () => ({ planType: 'business', interval: 'monthly' }), expect: { anonymous: 401, member: 403, admin: 403, owner: 200, foreign: 200 } },
  // A payment is looked up among the accounts the caller owns (a checkout finished after switching
  // teams is applied to the account that paid): A's subscription is not found for its member or admin.
  'billing.completeTestPayment': { input: async (who) => ({ subscriptionId: who === 'owner' ? await fx.checkout() : await fx.subscription() }), expect: { anonymous: 401, member: 404, admin: 404, owner: 200, foreign: 404 } },
  'billing.verifyPayment': {
    input: async () => ({ razorpay_payment_id: 'pay_test_forged', razorpay_subscription_id: await fx.subscription(), razorpay_signature: 'f'.repeat(64) }),
    expect: { anonymous: 401, member: 400, admin: 400, owner: 400, foreign: 400 },
    note: 'a forged signature never upgrades anyone',
  },
  'billing.keepCurrentPlan': { expect: { anonymous: 401, member: 403, admin: 403, owner: 409, foreign: 409 }, note: 'no plan change waiting: 409 means every gate passed' },
  'billing.cancel': { expect: { anonymous: 401, member: 403, admin: 403, owner: 200, foreign: 409 }, note: "B has no subscription of its own; A's is out of its reach" },
  'billing.refund': { expect: { anonymous: 401, member: 403, admin: 403, owner: 200, foreign: 409 } },
  // An address the syntax check cannot decide: only a probe could answer it (bad syntax is answered in the server).
  'validation.check': { input: () => ({ email: 'matrix@example.com' }), expect: everyone(503), note: 'no probe daemon in this server: 503 means every gate passed and the service was reached' },
};

describe('security matrix: tRPC', () => {
  it('has an entry for every tRPC procedure (and none for what is gone)', () => {
    const procedures = Object.keys((appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures).sort();
    expect(Object.keys(TRPC).sort(), 'tRPC procedures without an entry in the matrix (or entries for procedures that are gone)').toEqual(procedures);
  });

  it('walks every tRPC procedure as anonymous, owner of another account, removed admin, member, admin and owner', { timeout: 180_000 }, async () => {
    const before = await snapshotA();
    const failures: string[] = [];
    const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures;
    for (const who of CALLERS) {
      for (const [path, entry] of Object.entries(TRPC)) {
        const type = procedures[path]?._def.type;
        const input = entry.input ? await entry.input(who === 'exMember' ? 'foreign' : who) : undefined;
        let status: number;
        let text = '';
        if (type === 'subscription') {
          status = await subscriptionStatus(who, path);
        } else {
          const c = clientOf(who);
          const res = type === 'query' ? await c.trpcQuery(path, input) : await c.trpcMutation(path, input);
          status = res.status;
          text = JSON.stringify(res.body);
        }
        if (status !== expected(entry, who)) failures.push(`${who} ${path}: ${status} (expected ${expected(entry, who)}) ${text.slice(0, 160)}`);
        if (outsider(who) && path !== 'team.invitationPreview') {
          const leaked = leaks(text);
          if (leaked.length) failures.push(`${who} ${path} read A's rows: ${leaked.join(', ')}`);
        }
      }
      if (outsider(who)) {
        // Nothing of A changed, except the rows this pass itself added to A through fx.
        const after = JSON.parse(await snapshotA()) as Record<string, Array<{ id?: string }>>;
        const was = JSON.parse(before) as Record<string, Array<{ id?: string }>>;
        for (const table of Object.keys(was)) {
          const prior = new Map(was[table]!.map((r) => [r.id ?? 'row', JSON.stringify(r)]));
          for (const row of after[table]!) {
            const old = prior.get(row.id ?? 'row');
            if (old !== undefined && old !== JSON.stringify(row)) failures.push(`${who} changed A's ${table} row ${row.id ?? ''}: ${old} → ${JSON.stringify(row)}`);
          }
          if (after[table]!.length < was[table]!.length) failures.push(`${who} deleted A's ${table} rows`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

async function subscriptionStatus(who: Walker, path: string): Promise<number> {
  const c = clientOf(who);
  const headers = new Headers({ cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') });
  const caller = createCaller(await createContextInner(ts.server.deps, headers));
  const ac = new AbortController();
  try {
    const [router, proc] = path.split('.') as [string, string];
    const sub = await (caller as unknown as Record<string, Record<string, (i: unknown, o: { signal: AbortSignal }) => Promise<AsyncIterable<unknown>>>>)[router]![proc]!(undefined, { signal: ac.signal });
    const it = sub[Symbol.asyncIterator]();
    // The stream starts (auth and account resolved) and waits for events: that is a 200.
    const first = await Promise.race([it.next().then(() => 'event', (e: unknown) => e), new Promise((r) => setTimeout(() => r('waiting'), 150))]);
    ac.abort();
    void Promise.race([it.return?.(), new Promise((r) => setTimeout(r, 50))]).catch(() => undefined);
    if (first !== 'waiting' && first !== 'event') throw first;
    return 200;
  } catch (err) {
    ac.abort();
    const code = (err as { code?: string }).code;
    return code === 'UNAUTHORIZED' ? 401 : code === 'FORBIDDEN' ? 403 : code === 'NOT_FOUND' ? 404 : 500;
  }
}
