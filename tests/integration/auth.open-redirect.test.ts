// A link in one of our mails never sends its reader to another site: better-auth checks callbackURL
// against the app's trusted origins (its check is off under NODE_ENV=test unless we keep it on, as
// server/auth/auth.ts does, so this runs what production runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browserless, signUpVerified, startTestServer, verificationLink, type TestServer } from '../helpers/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts?.stop();
});

const signUp = (email: string) =>
  fetch(`${ts.url}/api/auth/sign-up/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ email, password: 'secret-pass-1', name: 'R' }) });

describe('no open redirect through auth links', () => {
  it('a verification link whose callbackURL was changed to another site does not redirect there', async () => {
    const email = `redirect-${Date.now()}@example.com`;
    expect((await signUp(email)).status).toBe(200);
    const link = new URL(await verificationLink(ts, email));
    link.searchParams.set('callbackURL', 'https://evil.example/');
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.headers.get('location') ?? '').not.toContain('evil.example');
  });

  it('a password-reset link with a foreign callbackURL does not redirect there', async () => {
    const email = `reset-redirect-${Date.now()}@example.com`;
    expect((await signUp(email)).status).toBe(200);
    const asked = await fetch(`${ts.url}/api/auth/request-password-reset`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ email, redirectTo: 'https://evil.example/steal' }) });
    // Either refused outright, or the mailed link leads back to the app only.
    if (asked.status === 200) {
      const mail = await ts.testDb.db.selectFrom('dev_outbox').select('text').where('to', '=', email).where('subject', 'like', 'Reset%').executeTakeFirst();
      if (mail) {
        const url = new URL(/(https?:\/\/\S+reset-password\/\S+)/.exec(mail.text)![1]!);
        const res = await fetch(url, { redirect: 'manual' });
        expect(res.headers.get('location') ?? '').not.toContain('evil.example');
      }
    } else expect(asked.status).toBeGreaterThanOrEqual(400);
  });

  it('refuses a return address no Location header can carry (a character past Latin-1, 20 KB) with 400, never a 500 or a header the browser drops', async () => {
    const email = `cb-bytes-${Date.now()}@example.com`;
    await signUpVerified(ts, { email });
    const bad = ['/\u2028x', '/dashboard\u4e2d', `/dashboard?x=${'y'.repeat(20_000)}`];
    for (const cb of bad) {
      const visitor = new Browserless(ts.url);
      const signIn = await visitor.request('/api/auth/sign-in/email', { json: { email, password: 'secret123', callbackURL: cb } });
      expect(signIn.status, `sign-in ${cb.slice(0, 20)}`).toBe(400);
      expect(((await signIn.json()) as { code: string }).code).toBe('INVALID_CALLBACK_URL');
      expect(visitor.cookies.size).toBe(0);
      const reset = await visitor.request('/api/auth/request-password-reset', { json: { email, redirectTo: cb } });
      expect(reset.status, `reset ${cb.slice(0, 20)}`).toBe(400);
      const up = await visitor.request('/api/auth/sign-up/email', { json: { name: 'C', email: `cb-up-${Date.now()}@example.com`, password: 'secret123', callbackURL: cb } });
      expect(up.status, `sign-up ${cb.slice(0, 20)}`).toBe(400);
    }
    // A verification link whose callbackURL was changed so: 400, and the address stays unverified.
    const fresh = `cb-link-${Date.now()}@example.com`;
    expect((await signUp(fresh)).status).toBe(200);
    const link = new URL(await verificationLink(ts, fresh));
    link.searchParams.set('callbackURL', '/\u2028x');
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(400);
    const user = await ts.testDb.db.selectFrom('user').select('emailVerified').where('email', '=', fresh).executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(false);
    // The app's own return addresses still work.
    const ok = await new Browserless(ts.url).request('/api/auth/sign-in/email', { json: { email, password: 'secret123', callbackURL: '/dashboard' } });
    expect(ok.status).toBe(200);
  });
});
