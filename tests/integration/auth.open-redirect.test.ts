// A link in one of our mails never sends its reader to another site: better-auth checks callbackURL
// against the app's trusted origins (its check is off under NODE_ENV=test unless we keep it on, as
// server/auth/auth.ts does, so this runs what production runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, verificationLink, type TestServer } from '../helpers/test-server';

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
});
