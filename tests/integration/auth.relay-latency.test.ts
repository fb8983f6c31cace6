// No account enumeration through the mail relay's latency: a password reset (or a verification
// mail) is sent for addresses that have an account only, so an answer that waited for the relay
// would tell an anonymous caller which addresses do. Production sends through SMTP_URL; here a
// relay on 127.0.0.1 that holds every message until the test lets it go.
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';

describe('auth answers do not wait for the mail relay', () => {
  let ts: TestServer;
  let relay: SMTPServer;
  const received: string[] = [];
  const held: Array<() => void> = [];
  beforeAll(async () => {
    relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'));
          held.push(() => cb());
        });
      },
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.server.address() as { port: number }).port;
    ts = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` } });
  }, 60_000);
  afterAll(async () => {
    for (const release of held.splice(0)) release();
    await ts?.stop();
    await new Promise<void>((resolve) => relay?.close(() => resolve()));
  });

  const post = async (path: string, json: unknown) => {
    const res = await fetch(`${ts.url}/api/auth${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify(json), signal: AbortSignal.timeout(20_000) });
    return { status: res.status, body: await res.text() };
  };
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
    return cond();
  };

  it('a reset for an existing address is answered like one for an unknown address while the relay still holds its mail', async () => {
    const known = `known-${Date.now()}@example.com`;
    expect((await post('/sign-up/email', { name: 'Known', email: known, password: 'secret123', callbackURL: '/dashboard' })).status).toBe(200);
    expect(await until(() => received.some((m) => m.includes(known)))).toBe(true); // the verification mail, held

    const existing = await post('/request-password-reset', { email: known, redirectTo: '/auth' });
    const unknown = await post('/request-password-reset', { email: `nobody-${Date.now()}@example.com`, redirectTo: '/auth' });
    expect(existing).toEqual(unknown);
    expect(existing.status).toBe(200);
    // The answer came before the relay let the reset mail go; the mail was handed over all the same.
    expect(await until(() => received.some((m) => m.includes(known) && /Reset your Mailvet password/.test(m)))).toBe(true);
    expect(held.length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a new verification mail asked for an address not yet verified is answered like one for an unknown address while the relay still holds it', async () => {
    const pending = `pending-${Date.now()}@example.com`;
    expect((await post('/sign-up/email', { name: 'Pending', email: pending, password: 'secret123', callbackURL: '/dashboard' })).status).toBe(200);
    expect(await until(() => received.some((m) => m.includes(pending)))).toBe(true); // the sign-up's verification mail, held
    const sentBefore = received.filter((m) => m.includes(pending)).length;

    const [existing, unknown] = await Promise.all([
      post('/send-verification-email', { email: pending, callbackURL: '/dashboard' }),
      post('/send-verification-email', { email: `nobody-${Date.now()}@example.com`, callbackURL: '/dashboard' }),
    ]);
    expect(existing).toEqual(unknown);
    expect(existing.status).toBe(200);
    // The answer came before the relay let the mail go; the mail was handed over all the same.
    expect(await until(() => received.filter((m) => m.includes(pending)).length > sentBefore)).toBe(true);
  }, 60_000);

  it('Change Password answers while the relay still holds the "password was changed" notice', async () => {
    const email = `changer-${Date.now()}@example.com`;
    expect((await post('/sign-up/email', { name: 'Changer', email, password: 'secret123', callbackURL: '/dashboard' })).status).toBe(200);
    await ts.testDb.db.updateTable('user').set({ emailVerified: true }).where('email', '=', email).execute();
    const signIn = await fetch(`${ts.url}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ts.url }, body: JSON.stringify({ email, password: 'secret123' }) });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const change = await fetch(`${ts.url}/api/auth/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ts.url, cookie },
      body: JSON.stringify({ currentPassword: 'secret123', newPassword: 'secret456', revokeOtherSessions: true }),
      signal: AbortSignal.timeout(20_000),
    });
    expect(change.status).toBe(200);
    expect(await until(() => received.some((m) => m.includes(email) && /password was changed/.test(m)))).toBe(true);
  }, 60_000);
});
