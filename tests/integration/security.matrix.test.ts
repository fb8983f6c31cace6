// The security matrix: every tRPC procedure, every /v1 route, the upload/export doors and every
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
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALLOWED_AUTH_ROUTES } from '../../server/auth/auth-routes';
import { createHttpApp } from '../../server/http/app';
import { createContextInner } from '../../server/trpc/context';
import { appRouter, createCaller } from '../../server/trpc/app-router';
import { v1Router } from '../../server/rest/v1.router';
import { v1RouteScopes } from '../../server/rest/openapi';
import { API_SCOPES } from '../../server/contracts/api-keys';
import { joinAs, ownerOn, setPlan, uniqueEmail, type Person } from '../helpers/accounts';
import { Browserless, startTestServer, type TestServer } from '../helpers/test-server';

type Caller = 'anonymous' | 'member' | 'admin' | 'owner' | 'foreign';
/** `exMember`: removed from A, back in an account of their own (Pro, like B's): answered as `foreign` in every entry. */
type Walker = Caller | 'exMember';
const CALLERS: Walker[] = ['anonymous', 'foreign', 'exMember', 'member', 'admin', 'owner'];
type Statuses = Record<Caller, number>;
const expected = (e: { expect: Statuses }, who: Walker): number => e.expect[who === 'exMember' ? 'foreign' : who];
const outsider = (who: Walker): boolean => who === 'foreign' || who === 'anonymous' || who === 'exMember';

/** The usual shapes. */
const everyone = (s = 200): Statuses => ({ anonymous: 401, member: s, admin: s, owner: s, foreign: s });
const managers = (foreign = 200): Statuses => ({ anonymous: 401, member: 403, admin: 200, owner: 200, foreign });
const inAccount = (): Statuses => ({ anonymous: 401, member: 200, admin: 200, owner: 200, foreign: 404 });

let ts: TestServer;
let A: { owner: Person; admin: Person; member: Person };
let B: Person;
/** An admin of A removed from the team, with the session and the API key they had. */
let exMember: Person & { apiKey: string };
let markers: string[]; // text only A's rows contain: never in an answer to B or anonymous

/** Fresh rows of account A for calls that read, change or delete one. */
const fx = {
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
    note: "A's owner cannot leave A; nobody leaves an account they are not in (A's member and admin are asked about B's: their leaving A for real is team.test.ts's)",
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

// ---- every /v1 route (API keys: A's key, B's key, none) ------------------------------------
// `unscoped`: A's key holding every scope but the one the route declares (403 SCOPE_REQUIRED).
type V1Caller = 'anonymous' | 'revoked' | 'unscoped' | 'owner' | 'foreign';
/** `exMember`: the key an admin of A made before being removed: revoked with the removal. */
type V1Walker = V1Caller | 'exMember';
interface V1Entry {
  request: () => Promise<{ method: string; path: string; body?: unknown }>;
  expect: Record<V1Caller, number>;
}
const v1Everyone = (s = 200): Record<V1Caller, number> => ({ anonymous: 401, revoked: 401, unscoped: 403, owner: s, foreign: s });
const V1: Record<string, V1Entry> = {
  'POST /validate': { request: async () => ({ method: 'POST', path: '/v1/validate', body: { email: 'matrix@example.com' } }), expect: v1Everyone(503) }, // no probe daemon here: every gate passed (an address only a probe can answer)
  'POST /bulk': { request: async () => ({ method: 'POST', path: '/v1/bulk', body: { emails: ['matrix@example.com'] } }), expect: v1Everyone() },
  'POST /bulk-validate': { request: async () => ({ method: 'POST', path: '/v1/bulk-validate', body: { emails: ['matrix@example.com'] } }), expect: v1Everyone() },
  'GET /jobs/{id}': { request: async () => ({ method: 'GET', path: `/v1/jobs/${await fx.job()}` }), expect: { anonymous: 401, revoked: 401, unscoped: 403, owner: 200, foreign: 404 } },
  'GET /jobs': { request: async () => ({ method: 'GET', path: '/v1/jobs' }), expect: v1Everyone() },
  'POST /jobs/{id}/cancel': { request: async () => ({ method: 'POST', path: `/v1/jobs/${await fx.runningJob()}/cancel` }), expect: { anonymous: 401, revoked: 401, unscoped: 403, owner: 200, foreign: 404 } },
  'POST /estimate': { request: async () => ({ method: 'POST', path: '/v1/estimate', body: { emails: ['matrix@example.com'] } }), expect: v1Everyone(503) }, // no probe daemon here: every gate passed
  'GET /jobs/{id}/results': { request: async () => ({ method: 'GET', path: `/v1/jobs/${await fx.job()}/results` }), expect: { anonymous: 401, revoked: 401, unscoped: 403, owner: 200, foreign: 404 } },
  'GET /account': { request: async () => ({ method: 'GET', path: '/v1/account' }), expect: v1Everyone() }, // each key sees its own account
};

// ---- every other Express route (enumerated from the app; /api/auth and the tRPC/v1 mounts aside) ----
interface Door {
  request: () => Promise<{ method: string; path: string; body?: string; contentType?: string }>;
  expect: Statuses;
  /** A public route (no session needed): the marker scan still applies to its answers. */
  public?: boolean;
}
const allCallers = (s: number): Statuses => ({ anonymous: s, member: s, admin: s, owner: s, foreign: s });
const DOORS: Record<string, Door> = {
  'GET /healthz': { request: async () => ({ method: 'GET', path: '/healthz' }), expect: allCallers(200), public: true },
  'GET /api/public-config': { request: async () => ({ method: 'GET', path: '/api/public-config' }), expect: allCallers(200), public: true },
  'GET /openapi.json': { request: async () => ({ method: 'GET', path: '/v1/openapi.json' }), expect: allCallers(200), public: true },
  // Developer tools (on in tests; never in production): loopback clients only, which these are.
  'GET /dev/outbox': { request: async () => ({ method: 'GET', path: '/dev/outbox' }), expect: allCallers(200), public: true },
  'GET /api/dev/outbox': { request: async () => ({ method: 'GET', path: '/api/dev/outbox' }), expect: allCallers(200), public: true },
  'POST /api/jobs/upload': { request: async () => ({ method: 'POST', path: '/api/jobs/upload?filename=door.csv', body: 'email\r\ndoor@example.com\r\n', contentType: 'text/csv' }), expect: everyone() },
  'GET /api/jobs/:jobId/export': { request: async () => ({ method: 'GET', path: `/api/jobs/${await fx.job()}/export` }), expect: inAccount() },
  'GET /api/reports/analytics.csv': { request: async () => ({ method: 'GET', path: '/api/reports/analytics.csv' }), expect: everyone() },
  'GET /api/billing/receipts/:paymentId': { request: async () => ({ method: 'GET', path: `/api/billing/receipts/${await fx.payment()}` }), expect: inAccount() },
  // White-label (both accounts are on Business in this walk): members refused by role; the others pass every gate and 'not an image' is refused (400), changing nothing.
  'POST /api/branding/logo': { request: async () => ({ method: 'POST', path: '/api/branding/logo', body: 'not an image', contentType: 'image/png' }), expect: { anonymous: 401, member: 403, admin: 400, owner: 400, foreign: 400 } },
  'GET /api/branding/logo/:file': { request: async () => ({ method: 'GET', path: `/api/branding/logo/${A.owner.accountId}.png` }), expect: allCallers(404), public: true },
  'GET /api/public-branding': { request: async () => ({ method: 'GET', path: '/api/public-branding' }), expect: allCallers(200), public: true },
  // Razorpay's webhook: no session, only a signature; a forged one changes nothing for anyone.
  'POST /api/billing/razorpay/webhook': {
    request: async () => ({ method: 'POST', path: '/api/billing/razorpay/webhook', body: JSON.stringify({ event: 'subscription.charged', payload: { subscription: { entity: { id: fx.subscriptionId, notes: { account_id: A.owner.accountId } } } } }), contentType: 'application/json' }),
    expect: allCallers(401),
  },
};

/** Every METHOD path the Express app serves outside /api/auth (the tRPC and /v1 mounts are middleware, not routes). */
function expressRoutes(): string[] {
  const app = createHttpApp(ts.server.deps);
  const out: string[] = [];
  const walk = (stack: Array<{ route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: unknown[] } }>) => {
    for (const l of stack) {
      if (l.route) for (const m of Object.keys(l.route.methods)) out.push(`${m.toUpperCase()} ${l.route.path}`);
      else if (l.handle?.stack) walk(l.handle.stack as typeof stack);
    }
  };
  walk((app as unknown as { router: { stack: Parameters<typeof walk>[0] } }).router.stack);
  return [...new Set(out.filter((r) => !r.includes('/api/auth/')))].sort();
}

// ---- every allowlisted auth route ------------------------------------------------------------
// Reachable (never 404 or 5xx) and harmless with wrong secrets; signed-in callers act on themselves.
const AUTH: Record<string, { request: (who: Caller) => { json?: unknown; query?: string }; expect: Statuses }> = {
  'POST /sign-up/email': { request: () => ({ json: { name: 'Again', email: A.owner.email, password: 'whatever-1' } }), expect: { anonymous: 200, member: 200, admin: 200, owner: 200, foreign: 200 } },
  'POST /sign-in/email': { request: () => ({ json: { email: A.owner.email, password: 'wrong-password' } }), expect: { anonymous: 401, member: 401, admin: 401, owner: 401, foreign: 401 } },
  'POST /sign-out': { request: () => ({ json: {} }), expect: { anonymous: 200, member: 200, admin: 200, owner: 200, foreign: 200 } },
  'GET /get-session': { request: () => ({}), expect: { anonymous: 200, member: 200, admin: 200, owner: 200, foreign: 200 } },
  'GET /verify-email': { request: () => ({ query: '?token=forged-token' }), expect: { anonymous: 401, member: 401, admin: 401, owner: 401, foreign: 401 } },
  'POST /send-verification-email': { request: () => ({ json: { email: A.owner.email } }), expect: { anonymous: 200, member: 400, admin: 400, owner: 400, foreign: 400 } }, // anonymous: same answer for any address (no enumeration); signed in: only one's own, unverified address
  'POST /request-password-reset': { request: () => ({ json: { email: uniqueEmail('nobody'), redirectTo: '/auth?step=reset' } }), expect: { anonymous: 200, member: 200, admin: 200, owner: 200, foreign: 200 } },
  'GET /reset-password/:token': { request: () => ({ query: '/forged-token?callbackURL=%2Fauth%3Fstep%3Dreset' }), expect: { anonymous: 302, member: 302, admin: 302, owner: 302, foreign: 302 } },
  'POST /reset-password': { request: () => ({ json: { newPassword: 'new-password-1', token: 'forged-token' } }), expect: { anonymous: 400, member: 400, admin: 400, owner: 400, foreign: 400 } },
  'POST /change-password': { request: () => ({ json: { currentPassword: 'wrong-password', newPassword: 'new-password-1' } }), expect: { anonymous: 401, member: 400, admin: 400, owner: 400, foreign: 400 } },
  'POST /two-factor/enable': { request: () => ({ json: { password: 'wrong-password' } }), expect: { anonymous: 401, member: 400, admin: 400, owner: 400, foreign: 400 } },
  'POST /two-factor/disable': { request: () => ({ json: { password: 'wrong-password' } }), expect: { anonymous: 401, member: 400, admin: 400, owner: 400, foreign: 400 } },
  'POST /two-factor/verify-totp': { request: () => ({ json: { code: '000000' } }), expect: { anonymous: 401, member: 400, admin: 400, owner: 400, foreign: 400 } },
  'POST /two-factor/verify-backup-code': { request: () => ({ json: { code: 'forged-code' } }), expect: { anonymous: 401, member: 400, admin: 400, owner: 400, foreign: 400 } },
};

// ------------------------------------------------------------------------------------------------

function clientOf(who: Walker): Browserless {
  if (who === 'anonymous') return new Browserless(ts.url);
  if (who === 'foreign') return B.client;
  if (who === 'exMember') return exMember.client;
  return A[who].client;
}

/** A's rows, as text: what no call from B (or a refused call) may change. */
async function snapshotA(): Promise<string> {
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

function leaks(text: string): string[] {
  return markers.filter((m) => text.includes(m));
}

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

describe('security matrix', () => {
  it('has an entry for every tRPC procedure, /v1 route and allowlisted auth route (and none for what is gone)', () => {
    const procedures = Object.keys((appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures).sort();
    expect(Object.keys(TRPC).sort(), 'tRPC procedures without an entry in the matrix (or entries for procedures that are gone)').toEqual(procedures);
    const v1 = Object.values((v1Router as unknown as { _def: { procedures: Record<string, { _def: { meta?: { openapi?: { method: string; path: string } } } }> } })._def.procedures)
      .map((p) => p._def.meta?.openapi)
      .filter((o): o is { method: string; path: string } => !!o)
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(Object.keys(V1).sort(), '/v1 routes without an entry').toEqual(v1);
    expect(Object.keys(AUTH).sort(), 'allowlisted auth routes without an entry').toEqual(ALLOWED_AUTH_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    expect(Object.keys(DOORS).sort(), 'Express routes without an entry').toEqual(expressRoutes());
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

  it('walks every /v1 route with no key, a revoked key, a removed admin\'s key, A\'s key and B\'s key (aimed at A\'s jobs)', { timeout: 60_000 }, async () => {
    const keyA = (await A.owner.client.trpcMutation('apiKeys.create', { name: 'matrix v1 A' })).body.result.data.api_key as string;
    const keyB = (await B.client.trpcMutation('apiKeys.create', { name: 'matrix v1 B' })).body.result.data.api_key as string;
    const revoked = await A.owner.client.trpcMutation('apiKeys.create', { name: 'matrix revoked' });
    await A.owner.client.trpcMutation('apiKeys.revoke', { id: revoked.body.result.data.id });
    const scopeOf = new Map(v1RouteScopes().map((r) => [`${r.method} ${r.path}`, r.scope!]));
    const withoutScope = new Map<string, string>();
    for (const scope of API_SCOPES) {
      const k = await A.owner.client.trpcMutation('apiKeys.create', { name: `matrix without ${scope}`, scopes: API_SCOPES.filter((s) => s !== scope) });
      withoutScope.set(scope, k.body.result.data.api_key as string);
    }
    const keys: Record<Exclude<V1Walker, 'unscoped'>, string | null> = { anonymous: null, revoked: revoked.body.result.data.api_key, owner: keyA, foreign: keyB, exMember: exMember.apiKey };
    const before = await snapshotA();
    const failures: string[] = [];
    for (const who of ['anonymous', 'revoked', 'exMember', 'unscoped', 'foreign', 'owner'] as V1Walker[]) {
      for (const [route, entry] of Object.entries(V1)) {
        const key = who === 'unscoped' ? withoutScope.get(scopeOf.get(route)!)! : keys[who];
        const r = await entry.request();
        const want = entry.expect[who === 'exMember' ? 'revoked' : who];
        // Each route in its own second: the plan's per-second rate is not what this walks. A call
        // refused at the key or scope gate (401, 403) never reaches the rate gate, so only the others wait.
        if (want !== 401 && want !== 403) await new Promise((res) => setTimeout(res, 120));
        const res = await fetch(`${ts.url}${r.path}`, {
          method: r.method,
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), cookie: [...A.owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        const text = await res.text();
        if (res.status === 429) {
          await new Promise((w) => setTimeout(w, 1100));
          failures.push(`${who} ${route}: rate-limited; the walk is too fast`);
          continue;
        }
        if (res.status !== want) failures.push(`${who} ${route}: ${res.status} (expected ${want}) ${text.slice(0, 160)}`);
        if (who !== 'owner' && leaks(text).length) failures.push(`${who} ${route} read A's rows: ${leaks(text).join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    // The session cookie of A's owner never stood in for a key, and B changed none of A's rows.
    const was = JSON.parse(before) as { jobs: unknown[]; keys: unknown[] };
    const after = JSON.parse(await snapshotA()) as { jobs: unknown[]; keys: unknown[] };
    expect(after.keys).toEqual(was.keys);
  });

  it('walks every other Express route (upload, export, reports, receipts, webhooks, public ones) as every caller', { timeout: 60_000 }, async () => {
    // Business: the CSV report is a Business feature.
    for (const id of [A.owner.accountId, B.accountId, exMember.accountId]) await ts.testDb.db.updateTable('account').set({ plan: 'business' }).where('id', '=', id).execute();
    const before = await snapshotA();
    const failures: string[] = [];
    for (const who of CALLERS) {
      for (const [door, entry] of Object.entries(DOORS)) {
        const r = await entry.request();
        const c = clientOf(who);
        const res = await fetch(`${ts.url}${r.path}`, {
          method: r.method,
          headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: ts.url, ...(r.contentType ? { 'content-type': r.contentType } : {}) },
          body: r.body,
        });
        const text = await res.text();
        if (res.status !== expected(entry, who)) failures.push(`${who} ${door}: ${res.status} (expected ${expected(entry, who)}) ${text.slice(0, 160)}`);
        if (outsider(who) && !door.includes('/dev/outbox') && leaks(text).length) failures.push(`${who} ${door} read A's rows: ${leaks(text).join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    const was = JSON.parse(before) as { account: unknown };
    expect((JSON.parse(await snapshotA()) as { account: unknown }).account).toEqual(was.account);
  });

  it('walks every allowlisted auth route as every caller: reachable, harmless with forged secrets, never another account', { timeout: 60_000 }, async () => {
    const before = await snapshotA();
    const failures: string[] = [];
    for (const who of CALLERS) {
      for (const [route, entry] of Object.entries(AUTH)) {
        if (route === 'POST /sign-out') continue; // walked last: it ends the session the others use
        failures.push(...(await authCall(who, route, entry)));
      }
    }
    for (const who of CALLERS) failures.push(...(await authCall(who, 'POST /sign-out', AUTH['POST /sign-out']!)));
    expect(failures).toEqual([]);
    expect(await snapshotA()).toBe(before);
  });
});

async function authCall(who: Walker, route: string, entry: (typeof AUTH)[string]): Promise<string[]> {
  const [method, path] = route.split(' ') as [string, string];
  const r = entry.request(who === 'exMember' ? 'foreign' : who);
  const base = path.replace('/:token', '');
  const c = who === 'anonymous' ? new Browserless(ts.url) : cloneClient(clientOf(who));
  const res = await c.request(`/api/auth${base}${r.query ?? ''}`, { method, json: r.json });
  const text = await res.text();
  const out: string[] = [];
  if (res.status !== expected(entry, who)) out.push(`${who} ${route}: ${res.status} (expected ${expected(entry, who)}) ${text.slice(0, 160)}`);
  if (who !== 'owner' && route === 'GET /get-session' && text.includes(A.owner.email)) out.push(`${who} ${route} saw A's owner`);
  return out;
}

/** A copy of a signed-in client, so an auth call's cookies (sign-out) do not end the shared session. */
function cloneClient(c: Browserless): Browserless {
  const copy = new Browserless(ts.url);
  for (const [k, v] of c.cookies) copy.cookies.set(k, v);
  return copy;
}

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
