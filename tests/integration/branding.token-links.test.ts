// A tenant's verified custom domain brands the mails of its own users, but never carries a link with
// a secret that acts on a user (password reset, email verification) nor a sign-in link: once
// verified, the tenant can point the domain's DNS at its own server, and a token link on it would
// hand the tenant the user — who may own or belong to other accounts — or a verified account in
// someone else's name. Those links are always on the app's origin (BASE_URL); only the invitation
// (whose proof lets the invitee join the inviting account, nothing else) links to the domain.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServerHandle, type Zone } from '../mailworld/dns-server';
import { signUpOnPlan } from './jobs.world';
import { Browserless, signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';
import { invitationIdFromMail } from '../helpers/accounts';

let ts: TestServer;
let dns: DnsServerHandle;
const zone: Zone = { names: new Map(), behaviours: new Map() };
let host = '';
let tenant: Awaited<ReturnType<typeof signUpOnPlan>>;

beforeAll(async () => {
  dns = await startDnsServer(zone, { ttl: 1, onQuery: () => undefined });
  ts = await startTestServer({ env: { BRANDING_DNS_SERVERS: `127.0.0.1:${dns.port}` } });
  tenant = await signUpOnPlan(ts, `tenant-${Date.now()}@example.com`, 'business');
  const set = (await tenant.client.trpcMutation('branding.setDomain', { domain: 'login.tenant.test' })).body.result.data;
  zone.names.set('_mailvet-verify.login.tenant.test', { txt: [set.domain.txtValue] });
  expect((await tenant.client.trpcMutation('branding.verifyDomain')).status).toBe(200);
  expect((await tenant.client.trpcMutation('branding.update', { brandColor: '#1d4ed8' })).status).toBe(200);
  host = `login.tenant.test:${new URL(ts.url).port}`;
});
afterAll(async () => {
  await ts?.stop();
  await dns?.close();
});

function postWithHost(path: string, body: unknown): Promise<number> {
  return postForAnswer(path, body).then((a) => a.status);
}

function postForAnswer(path: string, body: unknown): Promise<{ status: number; body: string }> {
  const u = new URL(ts.url);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method: 'POST', headers: { host, origin: `http://${host}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function lastMail(to: string, subject: RegExp): Promise<{ subject: string; text: string; html: string | null; link: URL }> {
  const rows = await ts.testDb.db.selectFrom('dev_outbox').select(['subject', 'text', 'html']).where('to', '=', to).orderBy('id', 'desc').execute();
  const mail = rows.find((r) => subject.test(r.subject));
  if (!mail) throw new Error(`no mail "${subject}" to ${to}`);
  return { ...mail, link: new URL(/(https?:\/\/\S+)/.exec(mail.text)?.[1] ?? '') };
}

describe("mails asked through a tenant's custom domain", () => {
  it("a password reset of someone outside the tenant's account is Mailvet's, its link on the app's origin", async () => {
    const victim = `reset-victim-${Date.now()}@example.com`;
    await signUpVerified(ts, { email: victim });
    expect(await postWithHost('/api/auth/request-password-reset', { email: victim, redirectTo: '/auth/reset' })).toBe(200);
    const mail = await lastMail(victim, /password$/);
    expect(mail.subject).toBe('Reset your Mailvet password');
    expect(mail.link.pathname).toMatch(/^\/api\/auth\/reset-password\//);
    expect(mail.link.origin).toBe(new URL(ts.url).origin);
  });

  it('a verification mail re-sent for an unverified outsider is Mailvet’s (verifying signs in: the token is a session)', async () => {
    const victim = `verify-victim-${Date.now()}@example.com`;
    const up = await fetch(`${ts.url}/api/auth/sign-up/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ email: victim, password: 'secret-pass-1', name: 'V' }) });
    expect(up.status).toBe(200);
    expect(await postWithHost('/api/auth/send-verification-email', { email: victim })).toBe(200);
    const mail = await lastMail(victim, /^Verify your email/);
    expect(mail.subject).toBe('Verify your email for Mailvet');
    expect(mail.link.origin).toBe(new URL(ts.url).origin);
  });

  it("the existing-account notice to an outsider is Mailvet's and links to the app's sign-in", async () => {
    const victim = `notice-victim-${Date.now()}@example.com`;
    await signUpVerified(ts, { email: victim });
    expect(await postWithHost('/api/auth/sign-up/email', { email: victim, password: 'secret-pass-2', name: 'Again' })).toBe(200);
    const mail = await lastMail(victim, /^Someone tried/);
    expect(mail.text).toContain('create a Mailvet account');
    expect(mail.link.origin).toBe(new URL(ts.url).origin);
  });

  it("a member of the tenant's account (who owns an account of their own) gets the tenant's brand, but every link on the app's origin", async () => {
    const memberEmail = `tenant-member-${Date.now()}@example.com`;
    await tenant.client.trpcMutation('team.invite', { email: memberEmail, role: 'member' });
    const invitationId = await invitationIdFromMail(ts, memberEmail); // the mailed link's reference (team-invitations.ts)
    const member = await signUpVerified(ts, { email: memberEmail });
    expect((await member.trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(200);
    expect(await postWithHost('/api/auth/request-password-reset', { email: memberEmail, redirectTo: '/auth?step=reset' })).toBe(200);
    const mail = await lastMail(memberEmail, /password$/);
    expect(mail.html).toContain('color:#1d4ed8'); // the tenant's brand stays
    expect(mail.link.pathname).toMatch(/^\/api\/auth\/reset-password\//);
    expect(mail.link.origin).toBe(new URL(ts.url).origin);
    expect(mail.text).not.toContain('tenant.test');

    // The new password chosen through the custom domain: the security notice's link is on the app too.
    const token = mail.link.pathname.split('/').pop()!;
    expect(await postWithHost('/api/auth/reset-password', { token, newPassword: 'member-new-pass' })).toBe(200);
    const notice = await lastMail(memberEmail, /password was changed$/);
    expect(notice.html).toContain('color:#1d4ed8');
    expect(notice.link.origin).toBe(new URL(ts.url).origin);
    // And the existing-account notice for a member, asked through the domain.
    expect(await postWithHost('/api/auth/sign-up/email', { email: memberEmail, password: 'secret-pass-2', name: 'Again' })).toBe(200);
    const existing = await lastMail(memberEmail, /^Someone tried/);
    expect(existing.html).toContain('color:#1d4ed8');
    expect(existing.link.origin).toBe(new URL(ts.url).origin);
  });

  it("a reset asked through the domain, even with a return address on it, opens and lands on the app's origin, where the new password signs in", async () => {
    const memberEmail = `tenant-resetter-${Date.now()}@example.com`;
    await tenant.client.trpcMutation('team.invite', { email: memberEmail, role: 'member' });
    const invitationId = await invitationIdFromMail(ts, memberEmail);
    const member = await signUpVerified(ts, { email: memberEmail });
    expect((await member.trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(200);
    expect(await postWithHost('/api/auth/request-password-reset', { email: memberEmail, redirectTo: `http://${host}/auth?step=reset` })).toBe(200);
    const mail = await lastMail(memberEmail, /password$/);
    expect(mail.link.origin).toBe(new URL(ts.url).origin);
    expect(mail.text).not.toContain('tenant.test');
    // Opened on the app: it lands on the app's reset step, the token never sent to the domain.
    const opened = await fetch(mail.link, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    const landing = new URL(opened.headers.get('location')!, ts.url);
    expect(landing.origin).toBe(new URL(ts.url).origin);
    expect(landing.pathname).toBe('/auth');
    expect(landing.searchParams.get('step')).toBe('reset');
    const token = landing.searchParams.get('token')!;
    expect(token).toBeTruthy();
    const browser = new Browserless(ts.url);
    expect((await browser.request('/api/auth/reset-password', { json: { token, newPassword: 'chosen-on-app' } })).status).toBe(200);
    const signIn = await browser.request('/api/auth/sign-in/email', { json: { email: memberEmail, password: 'chosen-on-app' } });
    expect(signIn.status).toBe(200);
    const session = (await (await browser.request('/api/auth/get-session')).json()) as { user?: { email?: string } } | null;
    expect(session?.user?.email).toBe(memberEmail);
  });

  it("a sign-up through the domain is verified by a link on the app's origin; the address's owner then signs in there", async () => {
    const who = `domain-signup-${Date.now()}@example.com`;
    expect(await postWithHost('/api/auth/sign-up/email', { email: who, password: 'owner-pass-1', name: 'Owner', callbackURL: `http://${host}/dashboard` })).toBe(200);
    const mail = await lastMail(who, /^Verify your email/);
    expect(mail.html).toContain('color:#1d4ed8'); // signed up through the domain: the tenant's brand
    expect(mail.link.origin).toBe(new URL(ts.url).origin);
    expect(mail.link.pathname).toBe('/api/auth/verify-email');
    expect(mail.text).not.toContain('tenant.test');
    // Opened on the app (not the browser the sign-up came from): verified, nobody signed in, and it lands on the app.
    const browser = new Browserless(ts.url);
    const opened = await browser.request(`${mail.link.pathname}${mail.link.search}`);
    expect(opened.status).toBe(302);
    const landing = new URL(opened.headers.get('location')!, ts.url);
    expect(landing.origin).toBe(new URL(ts.url).origin);
    expect(landing.pathname).toBe('/dashboard');
    expect((await ts.testDb.db.selectFrom('user').select('emailVerified').where('email', '=', who).executeTakeFirstOrThrow()).emailVerified).toBe(true);
    expect((await browser.request('/api/auth/sign-in/email', { json: { email: who, password: 'owner-pass-1' } })).status).toBe(200);
    expect((await browser.trpcQuery('account.me')).status).toBe(200);
  });

  it("an address the tenant signed up through its domain and its owner took over with a reset no longer gets the tenant's mails (nor their links)", async () => {
    const victim = `squatted-${Date.now()}@example.com`;
    // The tenant signs up someone else's address through its own domain: that user's mails there would be the tenant's.
    expect(await postWithHost('/api/auth/sign-up/email', { email: victim, password: 'tenant-knows', name: 'Squat' })).toBe(200);
    // The address's owner resets the password on the app's origin (the "someone tried to sign up" notice says to).
    await fetch(`${ts.url}/api/auth/request-password-reset`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ email: victim, redirectTo: '/auth?step=reset' }) });
    const token = (await lastMail(victim, /password$/)).link.pathname.split('/').pop()!;
    const reset = await fetch(`${ts.url}/api/auth/reset-password`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ token, newPassword: 'owner-chose' }) });
    expect(reset.status).toBe(200);
    // A reset the tenant asks for through its domain now mails Mailvet's link: the tenant never sees the owner's token.
    expect(await postWithHost('/api/auth/request-password-reset', { email: victim, redirectTo: '/auth/reset' })).toBe(200);
    const mail = await lastMail(victim, /password$/);
    expect(mail.link.pathname).not.toContain(token);
    expect(mail.subject).toBe('Reset your Mailvet password');
    expect(mail.link.origin).toBe(new URL(ts.url).origin);
  });

  it('a sign-up through the domain answers a new address and one with an account alike (nothing names the tenant)', async () => {
    const taken = `taken-${Date.now()}@example.com`;
    await signUpVerified(ts, { email: taken });
    const answer = async (email: string) => {
      const res = await postForAnswer('/api/auth/sign-up/email', { email, password: 'secret-pass-1', name: 'Same' });
      const body = JSON.parse(res.body) as { token: unknown; user: Record<string, unknown> };
      // What differs by nature (a fresh id, the clock, the address typed) is left out.
      const { id: _id, createdAt: _c, updatedAt: _u, email: _e, ...rest } = body.user;
      return { status: res.status, token: body.token, user: rest };
    };
    const fresh = await answer(`fresh-${Date.now()}@example.com`);
    expect(fresh.status).toBe(200);
    expect(await answer(taken)).toEqual(fresh);
    expect(JSON.stringify(fresh)).not.toContain(tenant.accountId);
  });

  it('a sign-up body cannot claim a tenant for itself (the field is set on the server only)', async () => {
    const who = `claims-${Date.now()}@example.com`;
    const res = await fetch(`${ts.url}/api/auth/sign-up/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ email: who, password: 'secret-pass-1', name: 'C', signupBrandAccountId: tenant.accountId }) });
    expect(res.status).toBeGreaterThanOrEqual(200);
    const row = await ts.testDb.db.selectFrom('user').selectAll().where('email', '=', who).executeTakeFirst();
    expect((row as Record<string, unknown> | undefined)?.signupBrandAccountId ?? null).toBeNull();
  });
});
