import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const ts = testServer();

async function resetLink(email: string): Promise<string> {
  await expect.poll(async () => ts.testDb.db.selectFrom('dev_outbox').select('id').where('to', '=', email).where('subject', '=', 'Reset your Mailvet password').executeTakeFirst()).toBeDefined();
  const mail = await ts.testDb.db.selectFrom('dev_outbox').select('text').where('to', '=', email).where('subject', '=', 'Reset your Mailvet password').orderBy('id', 'desc').executeTakeFirstOrThrow();
  return mail.text.match(/https?:\/\/\S+reset-password\S+/)![0];
}

/** Follows the reset link mailed to `email`: it must land on /auth's reset step; the token it carries. */
async function followResetLink(visitor: Browserless, email: string): Promise<string> {
  const follow = await visitor.request(await resetLink(email));
  expect(follow.status).toBe(302);
  const landing = new URL(follow.headers.get('location')!, ts.url);
  expect(landing.pathname).toBe('/auth');
  expect(landing.searchParams.get('step')).toBe('reset');
  const token = landing.searchParams.get('token')!;
  expect(token).toBeTruthy();
  return token;
}

describe('password reset', () => {
  it('mails a one-hour link that lands on /auth with a token, sets the new password and ends old sessions', async () => {
    const old = await signUpVerified(ts, { email: 'forgetful@example.com', password: 'old-password' });
    expect((await old.trpcQuery('account.me')).status).toBe(200);

    const visitor = new Browserless(ts.url);
    const ask = await visitor.request('/api/auth/request-password-reset', { json: { email: 'forgetful@example.com', redirectTo: '/auth?step=reset' } });
    expect(ask.status).toBe(200);
    const token = await followResetLink(visitor, 'forgetful@example.com');

    expect((await visitor.request('/api/auth/reset-password', { json: { newPassword: 'new-password', token } })).status).toBe(200);
    expect((await old.trpcQuery('account.me')).status).toBe(401);
    expect((await visitor.request('/api/auth/sign-in/email', { json: { email: 'forgetful@example.com', password: 'old-password' } })).status).toBe(401);
    expect((await visitor.request('/api/auth/sign-in/email', { json: { email: 'forgetful@example.com', password: 'new-password' } })).status).toBe(200);
    // A used token does not work twice.
    expect((await visitor.request('/api/auth/reset-password', { json: { newPassword: 'third-password', token } })).status).toBe(400);
  });

  it('a reset asked for without a return address (a script, another client) still mails a link that lands on the reset form, never a JSON 404', async () => {
    await signUpVerified(ts, { email: 'no-return@example.com', password: 'old-password' });
    const visitor = new Browserless(ts.url);
    expect((await visitor.request('/api/auth/request-password-reset', { json: { email: 'no-return@example.com' } })).status).toBe(200);
    const token = await followResetLink(visitor, 'no-return@example.com');
    expect((await visitor.request('/api/auth/reset-password', { json: { newPassword: 'new-password', token } })).status).toBe(200);
    expect((await visitor.request('/api/auth/sign-in/email', { json: { email: 'no-return@example.com', password: 'new-password' } })).status).toBe(200);
  });

  it('keeps only a digest of a reset link in the database: someone who reads the tables cannot choose a password with what they read', async () => {
    await signUpVerified(ts, { email: 'digest-only@example.com', password: 'old-password' });
    const visitor = new Browserless(ts.url);
    expect((await visitor.request('/api/auth/request-password-reset', { json: { email: 'digest-only@example.com', redirectTo: '/auth?step=reset' } })).status).toBe(200);
    const link = await resetLink('digest-only@example.com');
    const token = new URL(link).pathname.split('/').pop()!;
    const user = await ts.testDb.db.selectFrom('user').select('id').where('email', '=', 'digest-only@example.com').executeTakeFirstOrThrow();
    const { rows } = await sql<{ identifier: string }>`select identifier from verification where value = ${user.id}`.execute(ts.testDb.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.identifier).not.toContain(token);
    // What is stored is no link: with it in place of the token, nothing is reset.
    const stored = rows.find((r) => r.identifier.startsWith('reset-password'))!.identifier.split(':')[1]!;
    expect((await visitor.request('/api/auth/reset-password', { json: { newPassword: 'intruder-pass', token: stored } })).status).toBe(400);
    // The mailed link works.
    const follow = await visitor.request(link);
    expect(new URL(follow.headers.get('location')!, ts.url).searchParams.get('token')).toBe(token);
    expect((await visitor.request('/api/auth/reset-password', { json: { newPassword: 'new-password', token } })).status).toBe(200);
    expect((await visitor.request('/api/auth/sign-in/email', { json: { email: 'digest-only@example.com', password: 'new-password' } })).status).toBe(200);
  });

  it('answers an unknown address like a known one and sends nothing', async () => {
    const visitor = new Browserless(ts.url);
    const res = await visitor.request('/api/auth/request-password-reset', { json: { email: 'nobody-here@example.com', redirectTo: '/auth?step=reset' } });
    expect(res.status).toBe(200);
    const mails = await ts.testDb.db.selectFrom('dev_outbox').select('id').where('to', '=', 'nobody-here@example.com').execute();
    expect(mails).toHaveLength(0);
  });

  it('mails one mailbox at most 5 reset links an hour however often they are asked for (any spelling of it), answering every ask the same', async () => {
    await signUpVerified(ts, { email: 'bombed@example.com' });
    // Sign-ups of +tag spellings of the same mailbox: each one's mails land in the same inbox.
    for (const tag of ['a', 'b']) await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Tag', email: `bombed+${tag}@example.com`, password: 'secret123' } });
    const answers = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const email = ['bombed@example.com', 'bombed+a@example.com', 'bombed+b@example.com'][i % 3]!;
      const res = await new Browserless(ts.url).request('/api/auth/request-password-reset', { json: { email, redirectTo: '/auth?step=reset' } });
      answers.add(`${res.status} ${await res.text()}`);
    }
    expect([...answers]).toHaveLength(1);
    const mails = await ts.testDb.db.selectFrom('dev_outbox').select('to').where('to', 'like', 'bombed%@example.com').where('subject', '=', 'Reset your Mailvet password').execute();
    expect(mails).toHaveLength(5);
  });

  it('sends the "someone tried to sign up" notice to one mailbox at most 5 times an hour', async () => {
    await signUpVerified(ts, { email: 'noticed@example.com' });
    for (let i = 0; i < 8; i++) {
      const res = await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Again', email: 'noticed@example.com', password: 'secret123' } });
      expect(res.status).toBe(200);
    }
    await expect.poll(async () => (await ts.testDb.db.selectFrom('dev_outbox').select('id').where('to', '=', 'noticed@example.com').where('subject', '=', 'Someone tried to sign up with your email').execute()).length).toBe(5);
  });

  it('answers a NUL character in a reset token (or any auth field) with 400, never a 500, and signs nobody in with it', async () => {
    await signUpVerified(ts, { email: 'nul-field@example.com', password: 'secret123' });
    const visitor = new Browserless(ts.url);
    const reset = await visitor.request('/api/auth/reset-password', { json: { token: 'abc\u0000', newPassword: 'new-password' } });
    expect(reset.status).toBe(400);
    // scrypt (HMAC) reads "secret123\0" as "secret123": refused before it gets there.
    const signIn = await visitor.request('/api/auth/sign-in/email', { json: { email: 'nul-field@example.com', password: 'secret123\u0000' } });
    expect(signIn.status).toBe(400);
    expect(visitor.cookies.size).toBe(0);
  });
});
