// The security matrix, every other Express route (the matrix's world, callers and statuses: tests/helpers/security-matrix.ts).
import { describe, expect, it } from 'vitest';
import { createHttpApp } from '../../server/http/app';
import { A, B, CALLERS, clientOf, everyone, exMember, expected, fx, inAccount, leaks, outsider, securityMatrixWorld, snapshotA, ts, type Statuses } from '../helpers/security-matrix';

securityMatrixWorld();

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

describe('security matrix: other Express routes', () => {
  it('has an entry for every other Express route (and none for what is gone)', () => {
    expect(Object.keys(DOORS).sort(), 'Express routes without an entry').toEqual(expressRoutes());
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
});
