// White-label: locked below Business; logo checks (PNG as is, SVG rasterised, outside references
// refused), brand colour, custom domain verified by a DNS TXT record (the probe's DNS client against
// a DNS server on 127.0.0.1), the sign-in branding served by Host, CSV file names and invitation mails.
import { Resvg } from '@resvg/resvg-js';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServerHandle, type Zone } from '../mailworld/dns-server';
import { signUpOnPlan } from './jobs.world';
import { signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';
import { invitationIdFromMail } from '../helpers/accounts';

let ts: TestServer;
let dns: DnsServerHandle;
const zone: Zone = { names: new Map(), behaviours: new Map() };
beforeAll(async () => {
  dns = await startDnsServer(zone, { ttl: 1, onQuery: () => undefined });
  ts = await startTestServer({ env: { BRANDING_DNS_SERVERS: `127.0.0.1:${dns.port}` } });
});
afterAll(async () => {
  await ts?.stop();
  await dns?.close();
});

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (w = 40, h = 20) => Buffer.from(new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#123456"/></svg>`).render().asPng());

function cookieOf(c: { cookies: Map<string, string> }) {
  return [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
async function uploadLogo(c: { cookies: Map<string, string> }, body: Buffer | string, type = 'image/png') {
  const res = await fetch(`${ts.url}/api/branding/logo`, { method: 'POST', headers: { cookie: cookieOf(c), origin: ts.url, 'content-type': type }, body });
  return { status: res.status, body: (await res.json()) as any };
}
/** POST JSON with a chosen Host and Origin (fetch cannot set Host). */
function postWithHost(path: string, host: string, body: unknown, origin = `http://${host}`): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const u = new URL(ts.url);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path, method: 'POST', headers: { host, origin, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
/** GET with a chosen Host header (fetch cannot set Host). */
function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const u = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('white-label', () => {
  it('is locked below Business: settings refused with the plan code, the dashboard keeps Mailvet', async () => {
    const { client } = await signUpOnPlan(ts, 'brand-pro@example.com', 'pro');
    const r = await client.trpcMutation('branding.update', { brandColor: '#112233' });
    expect(r.status).toBe(403);
    expect(r.body.error.data.appCode).toBe('PLAN_REQUIRED');
    expect((await uploadLogo(client, png())).status).toBe(403);
    expect((await client.trpcMutation('branding.setDomain', { domain: 'pro.brand.test' })).status).toBe(403);
    expect((await client.trpcQuery('branding.current')).body.result.data).toEqual({ productName: 'Mailvet', brandColor: null, logoUrl: null, senderName: null });
    expect((await client.trpcQuery('branding.settings')).body.result.data.allowed).toBe(false);
  });

  it('Business: logo (PNG kept, SVG rasterised, unsafe SVG refused, size checked), colour, and product name reserved for Enterprise', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'brand-biz@example.com', 'business');
    const logo = png();
    const up = await uploadLogo(client, logo);
    expect(up.status).toBe(200);
    const served = await fetch(`${ts.url}${up.body.logoUrl}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(logo)).toBe(true);

    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" onload="alert(1)"><script>alert(document.cookie)</script><circle cx="25" cy="25" r="20" fill="#e11d48"/></svg>`;
    const svgUp = await uploadLogo(client, svg, 'image/svg+xml');
    expect(svgUp.status).toBe(200);
    const rasterised = Buffer.from(await (await fetch(`${ts.url}${svgUp.body.logoUrl}`)).arrayBuffer());
    expect(rasterised.subarray(0, 8).equals(PNG_SIG)).toBe(true);
    expect(rasterised.toString('latin1')).not.toContain('script');

    for (const bad of [
      `<svg xmlns="http://www.w3.org/2000/svg"><image href="file:///etc/passwd" width="10" height="10"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x.png" width="10" height="10"/></svg>`,
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://evil.example/a)" width="5" height="5"/></svg>`,
    ]) {
      const r = await uploadLogo(client, bad, 'image/svg+xml');
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/outside files|DOCTYPE/);
    }
    expect((await uploadLogo(client, 'GIF89a....', 'image/gif')).status).toBe(400);
    expect((await uploadLogo(client, Buffer.alloc(300 * 1024, 1))).status).toBe(413);
    const huge = Buffer.from(logo);
    huge.writeUInt32BE(5000, 16); // IHDR width
    expect((await uploadLogo(client, huge)).body.error.message).toMatch(/at most 2048×2048/);
    // The last good logo stays.
    expect((await client.trpcQuery('branding.current')).body.result.data.logoUrl).toBe(svgUp.body.logoUrl);

    const colour = await client.trpcMutation('branding.update', { brandColor: '#ABCDEF' });
    expect(colour.status).toBe(200);
    expect(colour.body.result.data.brandColor).toBe('#abcdef');
    expect((await client.trpcMutation('branding.update', { brandColor: 'red' })).status).toBe(400);
    const product = await client.trpcMutation('branding.update', { productName: 'Acme Verify' });
    expect(product.status).toBe(403);
    expect(product.body.error.message).toMatch(/Enterprise/);

    // Falling below Business hides the brand (kept for an upgrade back).
    await ts.testDb.db.updateTable('account').set({ plan: 'pro' }).where('id', '=', accountId).execute();
    expect((await client.trpcQuery('branding.current')).body.result.data.logoUrl).toBeNull();
    expect((await fetch(`${ts.url}${svgUp.body.logoUrl}`)).status).toBe(404);
  });

  it('custom domain: TXT verification through the probe DNS client, sign-in branding by Host, CSV file name, one owner per domain', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'brand-domain@example.com', 'business');
    await uploadLogo(client, png());
    await client.trpcMutation('branding.update', { brandColor: '#0f766e' });
    expect((await client.trpcMutation('branding.setDomain', { domain: 'not a domain' })).status).toBe(400);
    const set = (await client.trpcMutation('branding.setDomain', { domain: 'App.Brand.TEST' })).body.result.data;
    expect(set.domain).toMatchObject({ name: 'app.brand.test', verified: false, txtName: '_mailvet-verify.app.brand.test', txtValue: expect.stringMatching(/^mailvet-verify=[0-9a-f]{32}$/) });

    // Not there yet: refused with the record to add; the Host shows no brand.
    const early = await client.trpcMutation('branding.verifyDomain');
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain(set.domain.txtValue);
    expect(JSON.parse((await getWithHost('/api/public-branding', 'app.brand.test')).body)).toEqual({});

    zone.names.set('_mailvet-verify.app.brand.test', { txt: ['some-other=1', set.domain.txtValue] });
    const ok = await client.trpcMutation('branding.verifyDomain');
    expect(ok.status).toBe(200);
    expect(ok.body.result.data.domain.verified).toBe(true);

    const pub = JSON.parse((await getWithHost('/api/public-branding', 'app.brand.test:443')).body);
    expect(pub).toMatchObject({ domain: 'app.brand.test', productName: 'Mailvet', brandColor: '#0f766e', logoUrl: expect.stringMatching(new RegExp(`^/api/branding/logo/${accountId}\\.png`)) });
    expect(JSON.parse((await getWithHost('/api/public-branding', 'other.example')).body)).toEqual({});

    // Another account cannot claim the same domain.
    const other = await signUpOnPlan(ts, 'brand-domain2@example.com', 'business');
    const taken = await other.client.trpcMutation('branding.setDomain', { domain: 'app.brand.test' });
    expect(taken.status).toBe(409);

    // Result CSVs carry the verified domain in their file name.
    const job = await ts.testDb.db
      .insertInto('validation_job')
      .values({ account_id: accountId, created_by: null, filename: 'list.csv', source: 'upload', status: 'completed', total_emails: 0, processed_emails: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const exp = await fetch(`${ts.url}/api/jobs/${job.id}/export`, { headers: { cookie: cookieOf(client), origin: ts.url } });
    expect(exp.status).toBe(200);
    expect(exp.headers.get('content-disposition')).toBe(`attachment; filename="app.brand.test-validation-results-${job.id}.csv"`);
  });

  it('Enterprise: product and sender names; invitation mails carry the brand and the verified domain', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'brand-ent@example.com', 'enterprise');
    const r = await client.trpcMutation('branding.update', { productName: 'Acme Verify', senderName: 'Acme Support' });
    expect(r.status).toBe(200);
    expect((await client.trpcMutation('branding.update', { senderName: 'Evil <x@y>' })).status).toBe(400);
    // The product name is a mail subject to addresses typed on the domain: no second line, no control or
    // text-direction character; the name saved before stays.
    for (const productName of ['Acme\r\nBcc: you@example.com', 'Acme\u0007Verify', 'Acme \u202Eyfirev', 'Acme\u0085Verify']) {
      const bad = await client.trpcMutation('branding.update', { productName });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('The product name may not contain line breaks, control or text-direction characters.');
    }
    expect((await client.trpcMutation('branding.update', { senderName: 'Acme\u202ESupport' })).status).toBe(400);
    const set = (await client.trpcMutation('branding.setDomain', { domain: 'verify.acme.test' })).body.result.data;
    zone.names.set('_mailvet-verify.verify.acme.test', { txt: [set.domain.txtValue] });
    expect((await client.trpcMutation('branding.verifyDomain')).status).toBe(200);
    expect((await client.trpcQuery('branding.current')).body.result.data).toMatchObject({ productName: 'Acme Verify', senderName: 'Acme Support' });

    const invitee = `invitee-${Date.now()}@example.com`;
    expect((await client.trpcMutation('team.invite', { email: invitee, role: 'member' })).status).toBe(200);
    const mail = await ts.testDb.db.selectFrom('dev_outbox').select(['subject', 'text']).where('to', '=', invitee).executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/on Acme Verify$/);
    expect(mail.text).toContain('https://verify.acme.test/auth?invitation=');
    expect(mail.text).toMatch(/— Acme Verify$/);
    const file = await ts.testDb.db.insertInto('validation_job').values({ account_id: accountId, created_by: null, filename: 'l.csv', source: 'upload', status: 'completed' }).returning('id').executeTakeFirstOrThrow();
    const exp = await fetch(`${ts.url}/api/jobs/${file.id}/export`, { headers: { cookie: cookieOf(client), origin: ts.url } });
    expect(exp.headers.get('content-disposition')).toContain(`filename="acme-verify-validation-results-${file.id}.csv"`);
  });

  it('an unverified claim does not hold a domain: its real owner sets and verifies it; then no one else can verify or claim it', async () => {
    // Any Business account could type someone else's domain and never verify it.
    const squatter = await signUpOnPlan(ts, 'brand-squat@example.com', 'business');
    const claim = await squatter.client.trpcMutation('branding.setDomain', { domain: 'mail.owner.test' });
    expect(claim.status).toBe(200);
    expect(claim.body.result.data.domain.verified).toBe(false);

    const owner = await signUpOnPlan(ts, 'brand-owner@example.com', 'business');
    const set = await owner.client.trpcMutation('branding.setDomain', { domain: 'mail.owner.test' });
    expect(set.status).toBe(200);
    // (The test DNS server encodes an answer once per name: both records are there from the start.)
    zone.names.set('_mailvet-verify.mail.owner.test', { txt: [set.body.result.data.domain.txtValue, claim.body.result.data.domain.txtValue] });
    const ok = await owner.client.trpcMutation('branding.verifyDomain');
    expect(ok.status).toBe(200);
    expect(ok.body.result.data.domain.verified).toBe(true);
    expect(JSON.parse((await getWithHost('/api/public-branding', 'mail.owner.test')).body)).toMatchObject({ domain: 'mail.owner.test' });

    // Once verified it is the owner's: even with a record for the squatter's token, the domain is taken.
    const late = await squatter.client.trpcMutation('branding.verifyDomain');
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('This domain is already used by another account.');
    expect((await squatter.client.trpcMutation('branding.setDomain', { domain: 'mail.owner.test' })).status).toBe(409);
    expect(JSON.parse((await getWithHost('/api/public-branding', 'mail.owner.test')).body)).toMatchObject({ domain: 'mail.owner.test', logoUrl: null });
    const verified = await ts.testDb.db.selectFrom('account_branding').select('account_id').where('custom_domain', '=', 'mail.owner.test').where('domain_verified_at', 'is not', null).execute();
    expect(verified.map((r) => r.account_id)).toEqual([owner.accountId]);
  });

  it('members cannot change the branding', async () => {
    const owner = await signUpOnPlan(ts, 'brand-team@example.com', 'business');
    const memberEmail = `member-${Date.now()}@example.com`;
    await owner.client.trpcMutation('team.invite', { email: memberEmail, role: 'member' });
    const invitationId = await invitationIdFromMail(ts, memberEmail); // the mailed link's reference (team-invitations.ts)
    const member = await signUpVerified(ts, { email: memberEmail });
    expect((await member.trpcMutation('team.acceptInvitation', { invitationId })).status).toBe(200);
    expect((await member.trpcMutation('branding.update', { brandColor: '#000000' })).status).toBe(403);
    expect((await uploadLogo(member, png())).status).toBe(403);
  });

  it('verification, reset and existing-account mails triggered on a verified custom domain carry its brand (their links on the app’s origin); elsewhere Mailvet’s', async () => {
    const { client, accountId } = await signUpOnPlan(ts, 'brand-mails@example.com', 'enterprise');
    expect((await client.trpcMutation('branding.update', { productName: 'Zeta Check', senderName: 'Zeta Team', brandColor: '#0f7b6c' })).status).toBe(200);
    expect((await uploadLogo(client, png())).status).toBe(200);
    const set = (await client.trpcMutation('branding.setDomain', { domain: 'check.zeta.test' })).body.result.data;
    zone.names.set('_mailvet-verify.check.zeta.test', { txt: [set.domain.txtValue] });
    expect((await client.trpcMutation('branding.verifyDomain')).status).toBe(200);
    const port = new URL(ts.url).port;
    const host = `check.zeta.test:${port}`;
    const sent: Array<{ to: string; fromName?: string | null }> = [];
    const mailer = ts.server.deps.mailer;
    const send = mailer.send.bind(mailer);
    (mailer as { send: typeof mailer.send }).send = async (m) => {
      sent.push({ to: m.to, fromName: m.fromName });
      return send(m);
    };
    const mailTo = (to: string, subject: RegExp) =>
      ts.testDb.db.selectFrom('dev_outbox').select(['subject', 'text', 'html']).where('to', '=', to).orderBy('id', 'desc').execute().then((rows) => rows.find((r) => subject.test(r.subject)));
    try {
      // Sign-up on the custom domain: the verification mail is Zeta Check's, its link and logo on the app's
      // origin (the tenant can point the domain at a server of its own: a token there would be the tenant's).
      const app = new URL(ts.url).origin;
      const who = `zeta-user-${Date.now()}@example.com`;
      const up = await postWithHost('/api/auth/sign-up/email', host, { email: who, password: 'secret-pass-1', name: 'Zed' });
      expect(up.status).toBe(200);
      const verify = await mailTo(who, /^Verify your email/);
      expect(verify?.subject).toBe('Verify your email for Zeta Check');
      expect(verify?.text).toContain(`activate your Zeta Check account`);
      expect(verify?.text).toContain(`${app}/api/auth/verify-email?token=`);
      expect(verify?.text).not.toContain('check.zeta.test');
      expect(verify?.text).toMatch(/— Zeta Check$/);
      expect(verify?.html).toContain(`<img src="${app}/api/branding/logo/${accountId}.png?v=`);
      expect(verify?.html).not.toContain('check.zeta.test');
      expect(verify?.html).toContain('color:#0f7b6c');
      expect(sent.find((m) => m.to === who)?.fromName).toBe('Zeta Team');
      // The link works on the app's origin.
      const link = new URL(/(http:\/\/\S+verify-email\S+)/.exec(verify!.text)![1]!);
      const followed = await fetch(link, { redirect: 'manual' });
      expect(followed.status).toBe(302);
      expect((await ts.testDb.db.selectFrom('user').select('emailVerified').where('email', '=', who).executeTakeFirstOrThrow()).emailVerified).toBe(true);

      // Password reset asked on the custom domain; the existing-account notice too.
      expect((await postWithHost('/api/auth/request-password-reset', host, { email: who, redirectTo: '/auth/reset' })).status).toBe(200);
      const reset = await mailTo(who, /password$/);
      expect(reset?.subject).toBe('Reset your Zeta Check password');
      expect(reset?.text).toContain(`${app}/api/auth/reset-password/`);
      expect(reset?.text).not.toContain('check.zeta.test');
      expect((await postWithHost('/api/auth/sign-up/email', host, { email: who, password: 'secret-pass-2', name: 'Again' })).status).toBe(200);
      const notice = await mailTo(who, /^Someone tried/);
      expect(notice?.text).toContain('create a Zeta Check account');
      expect(notice?.text).toContain(`${app}/auth`);
      expect(notice?.text).not.toContain('check.zeta.test');

      // The same flows on the app's own host, or on a host that is no verified domain, are Mailvet's.
      const plain = `plain-user-${Date.now()}@example.com`;
      expect((await postWithHost('/api/auth/sign-up/email', new URL(ts.url).host, { email: plain, password: 'secret-pass-1', name: 'P' })).status).toBe(200);
      const plainMail = await mailTo(plain, /^Verify your email/);
      expect(plainMail?.subject).toBe('Verify your email for Mailvet');
      expect(plainMail?.html).not.toContain('<img');
      expect(sent.find((m) => m.to === plain)?.fromName ?? null).toBeNull();
      const evil = `evil-user-${Date.now()}@example.com`;
      // A page on another origin cannot sign anyone up (better-auth's origin check, on in tests too)…
      expect((await postWithHost('/api/auth/sign-up/email', `evil.test:${port}`, { email: evil, password: 'secret-pass-1', name: 'E' })).status).toBe(403);
      expect(await mailTo(evil, /^Verify your email/)).toBeUndefined();
      // …and a forged Host on a request from the app's own origin gets Mailvet's mail, links on the app.
      await postWithHost('/api/auth/sign-up/email', `evil.test:${port}`, { email: evil, password: 'secret-pass-1', name: 'E' }, ts.url);
      const evilMail = await mailTo(evil, /^Verify your email/);
      expect(evilMail?.subject).toBe('Verify your email for Mailvet');
      expect(evilMail?.text).toContain(`${ts.url}/api/auth/verify-email?token=`);
      expect(evilMail?.text).not.toContain('evil.test');
    } finally {
      (mailer as { send: typeof mailer.send }).send = send;
    }
  });
});
