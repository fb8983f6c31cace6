// The security matrix, better-auth: every allowlisted route (the matrix's world, callers and statuses: tests/helpers/security-matrix.ts).
import { describe, expect, it } from 'vitest';
import { ALLOWED_AUTH_ROUTES } from '../../server/auth/auth-routes';
import { uniqueEmail } from '../helpers/accounts';
import { Browserless } from '../helpers/test-server';
import { A, CALLERS, clientOf, cloneClient, expected, securityMatrixWorld, snapshotA, ts, type Caller, type Statuses, type Walker } from '../helpers/security-matrix';

securityMatrixWorld();

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

describe('security matrix: better-auth', () => {
  it('has an entry for every allowlisted auth route (and none for what is gone)', () => {
    expect(Object.keys(AUTH).sort(), 'allowlisted auth routes without an entry').toEqual(ALLOWED_AUTH_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
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
