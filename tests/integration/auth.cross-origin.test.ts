// A cookie-authenticated change must come from the app's own pages. The session cookie is
// SameSite=Lax, so a page on another host of the same site (a sibling subdomain, another host under
// a tenant's custom domain) gets it sent with its POSTs: here such a browser is modelled by sending
// the victim's cookie with that page's Origin. A "simple" request (text/plain, no preflight) reached
// the raw-body routes, which read any bytes: a CSV upload spending credits, a new logo.
import { describe, expect, it } from 'vitest';
import { signUpOnPlan } from './jobs.world';
import { testServer } from '../helpers/test-server';

const ts = testServer();

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>';
const REFUSED = "Refused: this request came from another website, not from this app's own pages.";

async function victim(email: string) {
  const v = await signUpOnPlan(ts, email, 'business');
  const cookie = [...v.client.cookies].map(([k, val]) => `${k}=${val}`).join('; ');
  const post = (path: string, headers: Record<string, string>, body?: string) => fetch(`${ts.url}${path}`, { method: 'POST', headers: { cookie, ...headers }, body });
  const jobs = async () => (await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', v.accountId).execute()).length;
  const logo = async () => (await ts.testDb.db.selectFrom('account_branding').select('logo_updated_at').where('account_id', '=', v.accountId).executeTakeFirst())?.logo_updated_at ?? null;
  return { ...v, post, jobs, logo };
}

describe('cookie-authenticated changes from another origin', () => {
  it('refuses a CSV upload and a logo sent as text/plain from a page on another origin, and changes nothing', async () => {
    const v = await victim('csrf-victim@example.com');
    const before = { jobs: await v.jobs(), logo: await v.logo() };
    const foreign: Array<Record<string, string>> = [
      { origin: 'https://evil.example.com', 'sec-fetch-site': 'same-site' },
      { origin: 'null' }, // a sandboxed frame
      { 'sec-fetch-site': 'same-site' }, // a browser that sent no Origin says where the request came from
    ];
    for (const headers of foreign) {
      const upload = await v.post('/api/jobs/upload?filename=list.csv', { ...headers, 'content-type': 'text/plain' }, 'email\nsomeone@example.com\n');
      expect(upload.status, JSON.stringify(headers)).toBe(403);
      expect(((await upload.json()) as { error: { message: string } }).error.message).toBe(REFUSED);
      const logo = await v.post('/api/branding/logo', { ...headers, 'content-type': 'text/plain' }, SVG);
      expect(logo.status, JSON.stringify(headers)).toBe(403);
      const trpc = await v.post('/api/trpc/account.profile.update', { ...headers, 'content-type': 'application/json' }, JSON.stringify({ full_name: 'Hijacked', company_name: '' }));
      expect(trpc.status, JSON.stringify(headers)).toBe(403);
    }
    expect({ jobs: await v.jobs(), logo: await v.logo() }).toEqual(before);
  });

  it("takes the same requests from the app's own pages, and from clients that are not browsers (no Origin)", async () => {
    const v = await victim('csrf-owner@example.com');
    expect((await v.post('/api/jobs/upload?filename=list.csv', { origin: ts.url, 'sec-fetch-site': 'same-origin', 'content-type': 'text/csv' }, 'email\nsomeone@example.com\n')).status).toBe(200);
    expect((await v.post('/api/branding/logo', { origin: ts.url, 'content-type': 'image/svg+xml' }, SVG)).status).toBe(200);
    expect((await v.post('/api/jobs/upload?filename=list.csv', { 'content-type': 'text/csv' }, 'email\nother@example.com\n')).status).toBe(200);
    expect(await v.jobs()).toBe(2);
    expect(await v.logo()).not.toBeNull();
  });

  it("refuses a dashboard read another site's page makes the browser send (it could spend the webhook secret's only showing), and serves the app's own", async () => {
    const v = await victim('csrf-secret@example.com');
    const cookie = [...v.client.cookies].map(([k, val]) => `${k}=${val}`).join('; ');
    const get = (headers: Record<string, string>) => fetch(`${ts.url}/api/trpc/apiKeys.webhookSecret`, { headers: { cookie, ...headers } });
    const secretRows = async () => (await ts.testDb.db.selectFrom('webhook_signing_secret').select('account_id').where('account_id', '=', v.accountId).execute()).length;
    const foreign: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, // a link or a form on another site
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', origin: 'https://evil.example.com' }, // a sibling subdomain's fetch
    ];
    for (const headers of foreign) {
      const res = await get(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(REFUSED);
    }
    expect(await secretRows()).toBe(0);
    // The API Keys page itself still gets the secret in full, that once.
    const own = await get({ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { result: { data: { secret: string | null } } }).result.data.secret).toMatch(/^whsec_/);
  });

  it('refuses a page on another port or scheme of the same host name, on every cookie route (better-auth\'s own too), and changes nothing', async () => {
    const v = await victim('csrf-port@example.com');
    const before = { jobs: await v.jobs(), logo: await v.logo() };
    const own = new URL(ts.url);
    // Another service on the same host (cookies are not kept apart by port), or the same host over the other scheme.
    const foreign = [`http://${own.hostname}:${Number(own.port) === 65535 ? 65534 : Number(own.port) + 1}`, `https://${own.host}`, `http://${own.hostname}`];
    for (const origin of foreign) {
      const headers = { origin, 'sec-fetch-site': 'same-site' };
      const upload = await v.post('/api/jobs/upload?filename=list.csv', { ...headers, 'content-type': 'text/plain' }, 'email\nsomeone@example.com\n');
      expect(upload.status, origin).toBe(403);
      expect(((await upload.json()) as { error: { message: string } }).error.message).toBe(REFUSED);
      expect((await v.post('/api/branding/logo', { ...headers, 'content-type': 'text/plain' }, SVG)).status, origin).toBe(403);
      const trpc = await v.post('/api/trpc/account.profile.update', { ...headers, 'content-type': 'application/json' }, JSON.stringify({ full_name: 'Hijacked', company_name: '' }));
      expect(trpc.status, origin).toBe(403);
      const signOut = await v.post('/api/auth/sign-out', { ...headers, 'content-type': 'application/json' }, '{}');
      expect(signOut.status, origin).toBe(403);
    }
    expect({ jobs: await v.jobs(), logo: await v.logo() }).toEqual(before);
    const profile = await v.client.trpcQuery('account.profile.get');
    expect(JSON.stringify(profile.body)).not.toContain('Hijacked');
    expect((await v.client.trpcQuery('account.me')).status).toBe(200); // still signed in: sign-out was refused
    // The app's own origin, exactly, still passes.
    expect((await v.post('/api/trpc/account.profile.update', { origin: ts.url, 'content-type': 'application/json' }, JSON.stringify({ full_name: 'Owner', company_name: '' }))).status).toBe(200);
  });
});
