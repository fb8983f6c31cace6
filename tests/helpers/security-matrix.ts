// The security matrix's world: every tRPC procedure, every /v1 route, the upload/export doors and every
// allowlisted auth route, called as anonymous, member, admin and owner of account A, as the
// owner of another account B aimed at A's rows, and as an ex-admin of A (removed from the team,
// session and API key kept) who must get exactly what B gets. Each call is checked for its status, and the whole
// walk for what it must never do: read one of A's rows into B's answers, or change any of A's rows
// from B (or from anyone on a refused call).
//
// The lists are enumerated from the code (appRouter's procedures, v1Router's OpenAPI routes,
// ALLOWED_AUTH_ROUTES): a procedure or route added without an entry below fails the first test.
//
// Adding an entry: key = the procedure path; `input` builds the call's input (fresh rows of A from
// `fx` for calls that change or delete them); `expect` gives the HTTP status per caller. Statuses:
// 200 served; 401 not signed in; 403 role or plan refused; 404 not in the caller's account; 400 bad
// input or a refused business rule. `foreign` is B's owner calling with A's ids (or, for calls
// without ids, doing the same thing in B: it must never touch A).
//
// The walks are split by concern, each file with its own server and world (this module):
// security.matrix.trpc.test.ts, security.matrix.v1.test.ts, security.matrix.doors.test.ts and
// security.matrix.auth.test.ts. Each checks that its table has an entry for everything of its kind.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { joinAs, ownerOn, setPlan, uniqueEmail, type Person } from './accounts';
import { Browserless, startTestServer, type TestServer } from './test-server';

export type Caller = 'anonymous' | 'member' | 'admin' | 'owner' | 'foreign';
/** `exMember`: removed from A, back in an account of their own (Pro, like B's): answered as `foreign` in every entry. */
export type Walker = Caller | 'exMember';
export const CALLERS: Walker[] = ['anonymous', 'foreign', 'exMember', 'member', 'admin', 'owner'];
export type Statuses = Record<Caller, number>;
export const expected = (e: { expect: Statuses }, who: Walker): number => e.expect[who === 'exMember' ? 'foreign' : who];
export const outsider = (who: Walker): boolean => who === 'foreign' || who === 'anonymous' || who === 'exMember';

/** The usual shapes. */
export const everyone = (s = 200): Statuses => ({ anonymous: 401, member: s, admin: s, owner: s, foreign: s });
export const managers = (foreign = 200): Statuses => ({ anonymous: 401, member: 403, admin: 200, owner: 200, foreign });
export const inAccount = (): Statuses => ({ anonymous: 401, member: 200, admin: 200, owner: 200, foreign: 404 });

export let ts: TestServer;
export let A: { owner: Person; admin: Person; member: Person };
export let B: Person;
/** An admin of A removed from the team, with the session and the API key they had. */
export let exMember: Person & { apiKey: string };
export let markers: string[]; // text only A's rows contain: never in an answer to B or anonymous

/** Fresh rows of account A for calls that read, change or delete one. */
export const fx = {
  db: () => ts.testDb.db,
  async job(): Promise<string> {
    const j = await fx.db().insertInto('validation_job').values({ account_id: A.owner.accountId, created_by: A.owner.userId, filename: 'secret-a-list.csv', status: 'completed', total_emails: 1, processed_emails: 1, completed_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    await fx.db().insertInto('validation_result').values({ account_id: A.owner.accountId, job_id: j.id, email: 'secret-a-row@example.com', result: 'valid', verdict: 'deliverable', reason: 'accepted', is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, deliverability_score: 90, role_detected: false, disposable_provider: false }).execute();
    return j.id;
  },
  /** A job of A still running (with one result done): for cancel. */
  async runningJob(): Promise<string> {
    const j = await fx.db().insertInto('validation_job').values({ account_id: A.owner.accountId, created_by: A.owner.userId, filename: 'secret-a-list.csv', status: 'processing', total_emails: 2, processed_emails: 1 }).returning('id').executeTakeFirstOrThrow();
    await fx.db().insertInto('validation_result').values({ account_id: A.owner.accountId, job_id: j.id, email: 'secret-a-row@example.com', result: 'valid', verdict: 'deliverable', reason: 'accepted', is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, deliverability_score: 90, role_detected: false, disposable_provider: false }).execute();
    return j.id;
  },
  async schedule(): Promise<string> {
    const s = await fx.db().insertInto('schedule').values({ account_id: A.owner.accountId, created_by: A.owner.userId, name: 'Secret A schedule', email_list: ['secret-a-row@example.com'], frequency: 'weekly' }).returning('id').executeTakeFirstOrThrow();
    return s.id;
  },
  async apiKey(): Promise<string> {
    const k = await fx.db().insertInto('api_key').values({ account_id: A.owner.accountId, created_by: A.owner.userId, name: 'Secret A key', key_prefix: 'mv_live_secr', key_hash: randomBytes(32).toString('hex') }).returning('id').executeTakeFirstOrThrow();
    return k.id;
  },
  async invitation(email = uniqueEmail('matrix-invitee')): Promise<string> {
    const id = randomUUID();
    await fx.db().insertInto('invitation').values({ id, organizationId: A.owner.accountId, email, role: 'member', status: 'pending', expiresAt: new Date(Date.now() + 86_400_000), inviterId: A.owner.userId, createdAt: new Date() }).execute();
    return id;
  },
  async extraMember(): Promise<string> {
    const userId = randomUUID();
    const now = new Date();
    await fx.db().insertInto('user').values({ id: userId, name: 'Secret A member', email: uniqueEmail('secret-a-member'), emailVerified: true, image: null, createdAt: now, updatedAt: now }).execute();
    const id = randomUUID();
    await fx.db().insertInto('member').values({ id, organizationId: A.owner.accountId, userId, role: 'member', createdAt: now }).execute();
    return id;
  },
  async webhookEndpoint(): Promise<string> {
    const e = await fx.db().insertInto('webhook_endpoint').values({ account_id: A.owner.accountId, created_by: A.owner.userId, url: 'https://93.184.215.14/secret-a-hook', events: ['job.completed'] }).returning('id').executeTakeFirstOrThrow();
    return e.id;
  },
  /** A failed delivery to a job's own webhook_url (replayable on Pro: account endpoints need Enterprise). */
  async webhookDelivery(): Promise<string> {
    const url = 'https://93.184.215.14/secret-a-hook';
    const j = await fx.db().insertInto('validation_job').values({ account_id: A.owner.accountId, created_by: A.owner.userId, filename: 'secret-a-list.csv', status: 'completed', total_emails: 1, processed_emails: 1, completed_at: new Date(), webhook_url: url }).returning('id').executeTakeFirstOrThrow();
    const d = await fx.db().insertInto('webhook_delivery').values({ account_id: A.owner.accountId, job_id: j.id, event: 'job.completed', url, body: '{"event":"job.completed","note":"secret-a-row@example.com"}', status: 'failed', attempts: 1 }).returning('id').executeTakeFirstOrThrow();
    return d.id;
  },
  /** A captured payment of A (for its receipt). */
  async payment(): Promise<string> {
    const id = `pay_test_${randomBytes(8).toString('hex')}`;
    await fx.db().insertInto('payment').values({ id, account_id: A.owner.accountId, subscription_id: null, plan: 'pro', interval: 'monthly', currency: 'USD', amount: 7_900, status: 'captured', period_start: new Date(), period_end: new Date(Date.now() + 30 * 86_400_000), failure_reason: null, refund_id: null, refunded_at: null }).execute();
    return id;
  },
  /** A's pending test-mode subscription (made once, in beforeAll, by A's owner through checkout). */
  subscriptionId: '',
  async subscription(): Promise<string> {
    if (fx.subscriptionId) return fx.subscriptionId;
    return fx.checkout();
  },
  /**
   * A new checkout of A's owner: the one a payment completes must be the newest, since each checkout
   * closes the one before it at Razorpay for good (the matrix's own billing.checkout row makes one).
   */
  async checkout(): Promise<string> {
    const res = await A.owner.client.trpcMutation('billing.checkout', { planType: 'business', interval: 'monthly' });
    const id = res.body.result?.data?.subscriptionId as string | undefined;
    if (!id) throw new Error(`no subscription from checkout: ${JSON.stringify(res.body).slice(0, 200)}`);
    fx.subscriptionId = id;
    return id;
  },
};

export function clientOf(who: Walker): Browserless {
  if (who === 'anonymous') return new Browserless(ts.url);
  if (who === 'foreign') return B.client;
  if (who === 'exMember') return exMember.client;
  return A[who].client;
}

/** A's rows, as text: what no call from B (or a refused call) may change. */
export async function snapshotA(): Promise<string> {
  const db = ts.testDb.db;
  const a = A.owner.accountId;
  const [account, members, invitations, jobs, schedules, keys, subscriptions, webhookEndpoints, webhookDeliveries, webhookSecret] = await Promise.all([
    db.selectFrom('account').select(['plan', 'credits_balance', 'owner_id', 'team_member_limit']).where('id', '=', a).execute(),
    db.selectFrom('member').select(['id', 'userId', 'role']).where('organizationId', '=', a).orderBy('id').execute(),
    db.selectFrom('invitation').select(['id', 'status']).where('organizationId', '=', a).orderBy('id').execute(),
    db.selectFrom('validation_job').select(['id', 'status']).where('account_id', '=', a).orderBy('id').execute(),
    db.selectFrom('schedule').select(['id', 'is_active']).where('account_id', '=', a).orderBy('id').execute(),
    db.selectFrom('api_key').select(['id', 'revoked_at']).where('account_id', '=', a).orderBy('id').execute(),
    db.selectFrom('subscription').select(['id', 'status']).where('account_id', '=', a).orderBy('id').execute(),
    db.selectFrom('webhook_endpoint').select(['id', 'url', 'events']).where('account_id', '=', a).orderBy('id').execute(),
    db.selectFrom('webhook_delivery').select(['id', 'status', 'attempts']).where('account_id', '=', a).orderBy('id').execute(),
    db.selectFrom('webhook_signing_secret').select(['ciphertext']).where('account_id', '=', a).execute(),
  ]);
  return JSON.stringify({ account, members, invitations, jobs, schedules, keys, subscriptions, webhookEndpoints, webhookDeliveries, webhookSecret });
}

export function leaks(text: string): string[] {
  return markers.filter((m) => text.includes(m));
}

/** The world every matrix file walks: A (owner, admin, member), B, A's removed admin; a server of its own. */
export function securityMatrixWorld(): void {
  beforeAll(async () => {
    ts = await startTestServer({ env: { STORAGE_DIR: `.data/test/storage-matrix-${Date.now()}` } });
    const owner = await ownerOn(ts, 'pro', 'matrix-a');
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 1000, credits_balance: 100_000 }).where('id', '=', owner.accountId).execute();
    A = { owner, admin: await joinAs(ts, owner, 'admin', 'matrix-a-admin'), member: await joinAs(ts, owner, 'member', 'matrix-a-member') };
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 1000 }).where('id', '=', owner.accountId).execute();
    B = await ownerOn(ts, 'pro', 'matrix-b');
    await setPlan(ts, B.accountId, 'pro');
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 1000, credits_balance: 100_000 }).where('id', '=', B.accountId).execute();
    // An admin of A who made an API key there, then was removed: their own account gets B's shape.
    const ex = await joinAs(ts, owner, 'admin', 'matrix-a-exadmin');
    const exKey = (await ex.client.trpcMutation('apiKeys.create', { name: 'matrix ex-admin key' })).body.result.data.api_key as string;
    const exRow = await ts.testDb.db.selectFrom('member').select('id').where('organizationId', '=', owner.accountId).where('userId', '=', ex.userId).executeTakeFirstOrThrow();
    const removed = await owner.client.trpcMutation('team.removeMember', { memberId: exRow.id });
    if (removed.status !== 200) throw new Error(`could not remove the ex-admin: ${JSON.stringify(removed.body).slice(0, 200)}`);
    const exOwn = await ts.testDb.db.selectFrom('member').select('organizationId').where('userId', '=', ex.userId).where('role', '=', 'owner').executeTakeFirstOrThrow();
    await setPlan(ts, exOwn.organizationId, 'pro');
    await ts.testDb.db.updateTable('account').set({ team_member_limit: 1000, credits_balance: 100_000 }).where('id', '=', exOwn.organizationId).execute();
    exMember = { ...ex, accountId: exOwn.organizationId, apiKey: exKey };
    await fx.subscription();
    const secretA = (await A.owner.client.trpcQuery('apiKeys.webhookSecret')).body.result.data.secret as string;
    markers = ['secret-a-list.csv', 'secret-a-row@example.com', 'Secret A schedule', 'Secret A key', 'Secret A member', secretA, A.owner.accountId, A.admin.email, A.member.email];
  }, 60_000);
  afterAll(async () => {
    await ts?.stop();
  });

  /** Each walk starts from A on Pro with room to spare (the tRPC walk's owner pass pays, cancels and refunds). */
  beforeEach(async () => {
    if (!A) return;
    await ts.testDb.db
      .updateTable('account')
      .set({ plan: 'pro', subscription_status: 'none', cancel_at_period_end: false, team_member_limit: 1000, credits_balance: 100_000 })
      .where('id', '=', A.owner.accountId)
      .execute();
  });
}

/** A copy of a signed-in client, so an auth call's cookies (sign-out) do not end the shared session. */
export function cloneClient(c: Browserless): Browserless {
  const copy = new Browserless(ts.url);
  for (const [k, v] of c.cookies) copy.cookies.set(k, v);
  return copy;
}
