// Brute force is bounded across processes: better-auth's rate limit lives in Postgres and keys on
// the client IP Express resolved with TRUST_PROXY, so a forged X-Forwarded-For buys nothing and a
// trusted proxy does not put every client in one bucket.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/accounts';
import { signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';

let direct: TestServer;
let proxied: TestServer;
let hops: TestServer;
beforeAll(async () => {
  direct = await startTestServer({ env: { AUTH_RATE_LIMIT: 'true' } });
  proxied = await startTestServer({ env: { AUTH_RATE_LIMIT: 'true', TRUST_PROXY: 'loopback' } });
  hops = await startTestServer({ env: { AUTH_RATE_LIMIT: 'true', TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await direct?.stop();
  await proxied?.stop();
  await hops?.stop();
});

function signIn(ts: TestServer, email: string, password: string, headers: Record<string, string> = {}) {
  return fetch(`${ts.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ts.url, ...headers },
    body: JSON.stringify({ email, password }),
  });
}

describe('sign-in rate limit', () => {
  it('holds against 50 parallel wrong passwords from one client, and a spoofed X-Forwarded-For gets no fresh budget', async () => {
    const email = uniqueEmail('brute');
    await signUpVerified(direct, { email, password: 'right-password' });
    const statuses = (await Promise.all(Array.from({ length: 50 }, () => signIn(direct, email, 'wrong-password')))).map((r) => r.status);
    const tried = statuses.filter((s) => s === 401).length;
    expect(tried).toBeGreaterThan(0);
    expect(tried).toBeLessThanOrEqual(3); // better-auth's sign-in rule: 3 per 10 s per client
    expect(statuses.filter((s) => s === 429)).toHaveLength(50 - tried);

    // Forged forwarding headers (this server trusts no proxy): the same bucket, still refused.
    const spoofed = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signIn(direct, email, 'wrong-password', { 'x-forwarded-for': `198.51.100.${i + 1}`, 'x-mailvet-client-ip': `203.0.113.${i + 1}` })),
    );
    expect(spoofed.map((r) => r.status)).toEqual(Array(10).fill(429));
    // Even the right password waits for the window.
    expect((await signIn(direct, email, 'right-password')).status).toBe(429);

    // The buckets live in Postgres (shared by every web process), keyed by the socket's address.
    const rows = await direct.testDb.db.selectFrom('rateLimit').select(['key', 'count']).execute();
    expect(rows.map((r) => r.key)).toContain('127.0.0.1|/sign-in/email');
    expect(rows.some((r) => r.key.includes('198.51.100') || r.key.includes('203.0.113'))).toBe(false);
  });

  it('never caps session reads (the SPA polls them): 120 in a row from one address all answer', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await fetch(`${direct.url}/api/auth/get-session`)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('behind a trusted proxy (TRUST_PROXY) keys each client apart, and a client cannot forge its way past the proxy', async () => {
    const email = uniqueEmail('proxied');
    await signUpVerified(proxied, { email, password: 'right-password' });
    const viaA = (await Promise.all(Array.from({ length: 10 }, () => signIn(proxied, email, 'wrong', { 'x-forwarded-for': '203.0.113.10' })))).map((r) => r.status);
    expect(viaA.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
    // Another client behind the same proxy has its own budget.
    expect((await signIn(proxied, email, 'right-password', { 'x-forwarded-for': '203.0.113.11' })).status).toBe(200);
    // Client A prepending a forged hop is still client A (the proxy appends the real address).
    expect((await signIn(proxied, email, 'right-password', { 'x-forwarded-for': '192.0.2.99, 203.0.113.10' })).status).toBe(429);
    const keys = (await proxied.testDb.db.selectFrom('rateLimit').select('key').execute()).map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(['203.0.113.10|/sign-in/email', '203.0.113.11|/sign-in/email']));
  });

  it('behind one proxy given as a hop count (TRUST_PROXY=1, as the README offers) keys each client apart too', async () => {
    const email = uniqueEmail('hops');
    await signUpVerified(hops, { email, password: 'right-password' });
    const viaA = (await Promise.all(Array.from({ length: 10 }, () => signIn(hops, email, 'wrong', { 'x-forwarded-for': '203.0.113.20' })))).map((r) => r.status);
    expect(viaA.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
    // Another client behind the proxy is not in client A's bucket (with "1" read as the address 0.0.0.1, both were the proxy).
    expect((await signIn(hops, email, 'right-password', { 'x-forwarded-for': '203.0.113.21' })).status).toBe(200);
    // One hop trusted: the address the proxy appended counts, whatever the client put before it.
    expect((await signIn(hops, email, 'right-password', { 'x-forwarded-for': '192.0.2.99, 203.0.113.20' })).status).toBe(429);
    const keys = (await hops.testDb.db.selectFrom('rateLimit').select('key').execute()).map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(['203.0.113.20|/sign-in/email', '203.0.113.21|/sign-in/email']));
  });
});

describe('sign-in attempts per email address', () => {
  // better-auth's per-IP limit off (its default in tests), so sign-ups here do not share a bucket;
  // every attempt below comes from its own client IP anyway, through a trusted proxy.
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await proxied?.stop();
  });
  // One client IP per attempt: what an attacker with a botnet or a pool of proxies has.
  let ip = 0;
  const freshClient = () => ({ 'x-forwarded-for': `198.18.${Math.floor(++ip / 250)}.${(ip % 250) + 1}` });

  it('stops guessing one account from many IPs after 10 attempts an hour, even parallel ones, and then refuses the right password too', async () => {
    const email = uniqueEmail('botnet');
    await signUpVerified(proxied, { email, password: 'right-password' });
    const statuses = (await Promise.all(Array.from({ length: 30 }, () => signIn(proxied, email, 'wrong-password', freshClient())))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);

    const locked = await signIn(proxied, email.toUpperCase(), 'right-password', freshClient());
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(((await locked.json()) as { message: string }).message).toBe('Too many failed sign-in attempts for this email. Try again in an hour, or reset your password.');
  });

  it('answers an address without an account exactly like one with an account', async () => {
    const email = uniqueEmail('nobody');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signIn(proxied, email, 'wrong-password', freshClient())).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });

  it('starts the count again after the right password', async () => {
    const email = uniqueEmail('typo');
    await signUpVerified(proxied, { email, password: 'right-password' });
    expect((await Promise.all(Array.from({ length: 9 }, () => signIn(proxied, email, 'wrong-password', freshClient())))).map((r) => r.status)).toEqual(Array(9).fill(401));
    expect((await signIn(proxied, email, 'right-password', freshClient())).status).toBe(200);
    expect((await Promise.all(Array.from({ length: 9 }, () => signIn(proxied, email, 'wrong-password', freshClient())))).map((r) => r.status)).toEqual(Array(9).fill(401));
    expect((await signIn(proxied, email, 'right-password', freshClient())).status).toBe(200);
  });

  it("strangers spending the address's attempts do not lock the owner out of a browser that signed in before, which has attempts of its own", async () => {
    const email = uniqueEmail('known-device');
    const signup = await signUpVerified(proxied, { email, password: 'right-password' });
    await signup.request('/api/auth/sign-out', { json: {} });
    // The owner signs in on their laptop once: it is a browser that has given the right password.
    const first = await signIn(proxied, email, 'right-password', freshClient());
    expect(first.status).toBe(200);
    const laptop = first.headers.getSetCookie().map((c) => c.split(';')[0]!).filter((c) => !c.includes('session')).join('; ');
    expect(laptop).not.toBe('');
    // The cookie names the address only under the server's key: whoever reads a shared computer's cookies cannot test guesses of it.
    expect(decodeURIComponent(laptop)).not.toContain(createHash('sha256').update(email.toLowerCase()).digest('hex'));
    // Someone (a competitor, a bot) sends 11 wrong passwords from anywhere: the address is locked for new browsers.
    await Promise.all(Array.from({ length: 11 }, () => signIn(proxied, email, 'wrong-password', freshClient())));
    expect((await signIn(proxied, email, 'right-password', freshClient())).status).toBe(429);
    // The owner's laptop still signs in.
    expect((await signIn(proxied, email, 'right-password', { ...freshClient(), cookie: laptop })).status).toBe(200);
    // Its cookie is no pass for another address, and guessing from it is bounded too (its own 10 an hour).
    const other = uniqueEmail('known-device-other');
    await signUpVerified(proxied, { email: other, password: 'right-password' });
    await Promise.all(Array.from({ length: 11 }, () => signIn(proxied, other, 'wrong-password', freshClient())));
    expect((await signIn(proxied, other, 'right-password', { ...freshClient(), cookie: laptop })).status).toBe(429);
    const guesses: number[] = [];
    for (let i = 0; i < 11; i++) guesses.push((await signIn(proxied, email, 'wrong-password', { ...freshClient(), cookie: laptop })).status);
    expect(guesses).toEqual([...Array(10).fill(401), 429]);
    expect((await signIn(proxied, email, 'right-password', { ...freshClient(), cookie: laptop })).status).toBe(429);
  });

  /** The cookies a response set, merged over `jar` (a cookie header string). */
  const withCookies = (jar: string, res: Response): string => {
    const map = new Map(jar.split('; ').filter(Boolean).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const));
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('='));
      if (/max-age=0/i.test(c)) map.delete(name);
      else map.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    return [...map].map(([k, v]) => `${k}=${v}`).join('; ');
  };
  const withoutSession = (jar: string) => jar.split('; ').filter((c) => !c.includes('session')).join('; ');
  const lockAddress = async (email: string) => {
    await Promise.all(Array.from({ length: 11 }, () => signIn(proxied, email, 'wrong-password', freshClient())));
    expect((await signIn(proxied, email, 'wrong-password', freshClient())).status).toBe(429);
  };

  it('a password change ends what browsers known before may do: their attempts count with strangers\' again; the browser that changed it stays known', async () => {
    const email = uniqueEmail('known-device-change');
    const signup = await signUpVerified(proxied, { email, password: 'old-password' });
    await signup.request('/api/auth/sign-out', { json: {} });
    // Someone who had the old password signed in from their own browser once.
    const stale = withoutSession(withCookies('', await signIn(proxied, email, 'old-password', freshClient())));
    expect(stale).toContain('known_device');
    // The owner signs in and changes the password.
    let owner = withCookies('', await signIn(proxied, email, 'old-password', freshClient()));
    const change = await fetch(`${proxied.url}/api/auth/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: proxied.url, cookie: owner, ...freshClient() },
      body: JSON.stringify({ currentPassword: 'old-password', newPassword: 'new-password' }),
    });
    expect(change.status).toBe(200);
    owner = withoutSession(withCookies(owner, change));
    // Guesses sent from anywhere lock the address for browsers it does not know.
    await lockAddress(email);
    // The browser known before the change is one of those now, whatever password it tries.
    expect((await signIn(proxied, email, 'new-password', { ...freshClient(), cookie: stale })).status).toBe(429);
    expect((await signIn(proxied, email, 'wrong-password', { ...freshClient(), cookie: stale })).status).toBe(429);
    // The owner's browser, which gave the password and chose the new one, still signs in.
    expect((await signIn(proxied, email, 'new-password', { ...freshClient(), cookie: owner })).status).toBe(200);
  });

  /** Asks for a reset link from a new browser, reads it from the outbox and sets `newPassword` with it. */
  async function resetThroughMailbox(email: string, newPassword: string): Promise<void> {
    const ask = await fetch(`${proxied.url}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: proxied.url, ...freshClient() },
      body: JSON.stringify({ email, redirectTo: '/auth?step=reset' }),
    });
    expect(ask.status).toBe(200);
    await expect.poll(async () => proxied.testDb.db.selectFrom('dev_outbox').select('text').where('to', '=', email).where('subject', '=', 'Reset your Mailvet password').executeTakeFirst()).toBeDefined();
    const mail = await proxied.testDb.db.selectFrom('dev_outbox').select('text').where('to', '=', email).where('subject', '=', 'Reset your Mailvet password').executeTakeFirstOrThrow();
    const token = new URL(mail.text.match(/https?:\/\/\S+reset-password\S+/)![0]).pathname.split('/').pop()!;
    const reset = await fetch(`${proxied.url}/api/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: proxied.url, ...freshClient() },
      body: JSON.stringify({ newPassword, token }),
    });
    expect(reset.status).toBe(200);
  }

  it('a password reset through the mailbox also forgets the browsers known before', async () => {
    const email = uniqueEmail('known-device-reset');
    const signup = await signUpVerified(proxied, { email, password: 'old-password' });
    await signup.request('/api/auth/sign-out', { json: {} });
    const stale = withoutSession(withCookies('', await signIn(proxied, email, 'old-password', freshClient())));
    expect(stale).toContain('known_device');
    await resetThroughMailbox(email, 'new-password');
    await lockAddress(email);
    expect((await signIn(proxied, email, 'new-password', { ...freshClient(), cookie: stale })).status).toBe(429);
  });

  it('never locks the owner out: a password reset through the mailbox lifts the lock', async () => {
    const email = uniqueEmail('owner');
    await signUpVerified(proxied, { email, password: 'right-password' });
    await Promise.all(Array.from({ length: 11 }, () => signIn(proxied, email, 'wrong-password', freshClient())));
    expect((await signIn(proxied, email, 'right-password', freshClient())).status).toBe(429);

    await resetThroughMailbox(email, 'new-password');
    expect((await signIn(proxied, email, 'new-password', freshClient())).status).toBe(200);
  });
});
