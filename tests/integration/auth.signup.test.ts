import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browserless, signUpVerified, startTestServer, testServer, verificationLink, type TestServer } from '../helpers/test-server';

const ts = testServer();

const counts = async () => {
  const n = async (t: 'user' | 'account' | 'member' | 'profile' | 'organization') =>
    Number((await ts.testDb.db.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { user: await n('user'), account: await n('account'), member: await n('member'), profile: await n('profile'), organization: await n('organization') };
};

describe('sign-up', () => {
  it('creates the account (free plan), the owner role and the profile together; the 500 credits come with the verified address', async () => {
    const c = new Browserless(ts.url);
    const res = await c.request('/api/auth/sign-up/email', { json: { name: 'Grace Hopper', email: 'grace@example.com', password: 'cobol1959', callbackURL: '/dashboard' } });
    expect(res.status).toBe(200);
    const user = await ts.testDb.db.selectFrom('user').selectAll().where('email', '=', 'grace@example.com').executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(false);
    const member = await ts.testDb.db.selectFrom('member').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(member.role).toBe('owner');
    const account = await ts.testDb.db.selectFrom('account').selectAll().where('id', '=', member.organizationId).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ plan: 'free', credits_balance: 0, owner_id: user.id, monthly_validations_used: 0 });
    const profile = await ts.testDb.db.selectFrom('profile').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(profile.full_name).toBe('Grace Hopper');
    expect((await c.request(await verificationLink(ts, 'grace@example.com'))).status).toBe(302);
    const verified = await ts.testDb.db.selectFrom('account').select('credits_balance').where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(verified.credits_balance).toBe(500);
  });

  it('refuses sign-in until the emailed link is followed, which signs the user in and returns to /dashboard', async () => {
    const c = new Browserless(ts.url);
    await c.request('/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@example.com', password: 'engine42', callbackURL: '/dashboard' } });
    const early = await c.request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: 'engine42' } });
    expect(early.status).toBe(403);
    expect(((await early.json()) as { code: string }).code).toBe('EMAIL_NOT_VERIFIED');

    const link = await verificationLink(ts, 'ada@example.com');
    const verify = await c.request(link);
    expect(verify.status).toBe(302);
    expect(verify.headers.get('location')).toBe('/dashboard');
    const me = await c.trpcQuery('account.me');
    expect(me.status).toBe(200);
    expect(me.body.result.data).toMatchObject({ plan: 'free', credits_balance: 500, role: 'owner', user: { email: 'ada@example.com' } });
  });

  it("never switches a signed-in browser to another person's account: a verification link someone else sent it verifies that address, and the browser stays its own user's", async () => {
    const victim = await signUpVerified(ts, { email: 'vera@example.com' });
    // An attacker signs up an address of theirs and gets a page of theirs to open its link in Vera's browser.
    await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Mallory', email: 'mallory@example.com', password: 'engine42', callbackURL: '/dashboard' } });
    const link = await verificationLink(ts, 'mallory@example.com');
    const opened = await victim.request(link);
    expect(opened.status).toBe(302);
    const me = await victim.trpcQuery('account.me');
    expect(me.status).toBe(200);
    expect(me.body.result.data.user.email).toBe('vera@example.com');
    const mallory = await ts.testDb.db.selectFrom('user').select(['id', 'emailVerified']).where('email', '=', 'mallory@example.com').executeTakeFirstOrThrow();
    expect(mallory.emailVerified).toBe(true);
    // No session of Mallory's was handed to Vera's browser (nor left behind): Mallory signs in with the password.
    expect(await ts.testDb.db.selectFrom('session').select('id').where('userId', '=', mallory.id).execute()).toEqual([]);
    expect((await new Browserless(ts.url).request('/api/auth/sign-in/email', { json: { email: 'mallory@example.com', password: 'engine42' } })).status).toBe(200);
  });

  it('signs in from the verification link only in the browser that signed up: elsewhere the link verifies the address and signs nobody in', async () => {
    // Someone signs up Nora's address with a password of theirs; Nora opens the link mailed to her.
    const squatter = new Browserless(ts.url);
    await squatter.request('/api/auth/sign-up/email', { json: { name: 'Nora?', email: 'nora@example.com', password: 'squatted1', callbackURL: '/dashboard' } });
    const link = await verificationLink(ts, 'nora@example.com');
    const nora = new Browserless(ts.url);
    const opened = await nora.request(link);
    expect(opened.status).toBe(302);
    // She is not working in an account whose password someone else holds (she resets it to take it over).
    expect((await nora.trpcQuery('account.me')).status).toBe(401);
    const user = await ts.testDb.db.selectFrom('user').select(['id', 'emailVerified']).where('email', '=', 'nora@example.com').executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(true);
    expect(await ts.testDb.db.selectFrom('session').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    // Likewise a page that opens the link of an address of its maker's in a signed-out browser signs it into nothing.
    const browser = new Browserless(ts.url);
    await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Mallory', email: 'mallory2@example.com', password: 'engine42', callbackURL: '/dashboard' } });
    expect((await browser.request(await verificationLink(ts, 'mallory2@example.com'))).status).toBe(302);
    expect((await browser.trpcQuery('account.me')).status).toBe(401);
    // In the browser that signed up, the link signs in (and one that signed in with the right password before verifying).
    const own = new Browserless(ts.url);
    await own.request('/api/auth/sign-up/email', { json: { name: 'Olga', email: 'olga@example.com', password: 'engine42', callbackURL: '/dashboard' } });
    expect((await own.request(await verificationLink(ts, 'olga@example.com'))).status).toBe(302);
    expect((await own.trpcQuery('account.me')).body.result.data.user.email).toBe('olga@example.com');
    await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Pia', email: 'pia@example.com', password: 'engine42', callbackURL: '/dashboard' } });
    const laptop = new Browserless(ts.url);
    expect((await laptop.request('/api/auth/sign-in/email', { json: { email: 'pia@example.com', password: 'engine42' } })).status).toBe(403);
    expect((await laptop.request(await verificationLink(ts, 'pia@example.com'))).status).toBe(302);
    expect((await laptop.trpcQuery('account.me')).body.result.data.user.email).toBe('pia@example.com');
  });

  it("a HEAD of the verification link (a mail scanner or link checker probing it) changes nothing: the address stays unverified and nobody is signed in until the link is opened", async () => {
    // Someone signs up Quinn's address; the mail lands in a mailbox whose security scanner probes every link.
    const own = new Browserless(ts.url);
    await own.request('/api/auth/sign-up/email', { json: { name: 'Quinn', email: 'quinn@example.com', password: 'engine42', callbackURL: '/dashboard' } });
    const link = await verificationLink(ts, 'quinn@example.com');
    const ownCookie = [...own.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const headers of [{}, { cookie: ownCookie }] as Array<Record<string, string>>) {
      const probed = await fetch(link, { method: 'HEAD', headers, redirect: 'manual' });
      expect(probed.status, JSON.stringify(headers)).toBeLessThan(400);
      expect(probed.headers.getSetCookie(), JSON.stringify(headers)).toEqual([]);
    }
    const user = await ts.testDb.db.selectFrom('user').select(['id', 'emailVerified']).where('email', '=', 'quinn@example.com').executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(false);
    expect(await ts.testDb.db.selectFrom('session').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    // Opened (GET), the link verifies the address and signs in the browser that signed up.
    expect((await own.request(link)).status).toBe(302);
    expect((await own.trpcQuery('account.me')).body.result.data.user.email).toBe('quinn@example.com');
  });

  it('answers a duplicate sign-up like a new one, creates nothing and tells the real owner', async () => {
    await signUpVerified(ts, { email: 'dup@example.com', name: 'First' });
    const before = await counts();
    const c = new Browserless(ts.url);
    const res = await c.request('/api/auth/sign-up/email', { json: { name: 'Second', email: 'DUP@example.com', password: 'another1', callbackURL: '/dashboard' } });
    expect(res.status).toBe(200);
    expect(await counts()).toEqual(before);
    await expect.poll(async () =>
      (await ts.testDb.db.selectFrom('dev_outbox').select('subject').where('to', '=', 'dup@example.com').execute()).map((m) => m.subject),
    ).toContain('Someone tried to sign up with your email');
  });

  it('tells the owner of an address someone else signed up (never verified) to reset the password to take it over, not only to sign in', async () => {
    // Someone signs up with this address and a password of theirs; the address's owner then tries to sign up.
    await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Squatter', email: 'squatted@example.com', password: 'squatter1', callbackURL: '/dashboard' } });
    const owner = await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Owner', email: 'squatted@example.com', password: 'owner-pass', callbackURL: '/dashboard' } });
    expect(owner.status).toBe(200);
    await expect.poll(async () => (await ts.testDb.db.selectFrom('dev_outbox').select('id').where('to', '=', 'squatted@example.com').where('subject', '=', 'Someone tried to sign up with your email').execute()).length).toBe(1);
    const notice = await ts.testDb.db.selectFrom('dev_outbox').select('text').where('to', '=', 'squatted@example.com').where('subject', '=', 'Someone tried to sign up with your email').executeTakeFirstOrThrow();
    expect(notice.text).toContain('never activated');
    expect(notice.text).toContain(`${ts.url}/auth?step=forgot`);
  });

  it('rejects a wrong password with 401 and no session', async () => {
    await signUpVerified(ts, { email: 'pw@example.com', password: 'right-one' });
    const c = new Browserless(ts.url);
    const res = await c.request('/api/auth/sign-in/email', { json: { email: 'pw@example.com', password: 'wrong-one' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/invalid email or password/i);
    expect((await c.trpcQuery('account.me')).status).toBe(401);
  });

  it('rejects a 10 kB email, a short password and a CR/LF address with 400 and writes nothing', async () => {
    const before = await counts();
    const c = new Browserless(ts.url);
    const huge = `${'a'.repeat(10_000)}@example.com`;
    for (const body of [
      { name: 'Big', email: huge, password: 'secret123' },
      { name: 'Short', email: 'short@example.com', password: '12345' },
      { name: 'Crlf', email: 'evil@example.com\r\nBcc: x@example.com', password: 'secret123' },
    ]) {
      const res = await c.request('/api/auth/sign-up/email', { json: body });
      expect(res.status).toBe(400);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a picture URL at sign-up (the product has none) with 400 and stores nothing', async () => {
    const before = await counts();
    const res = await new Browserless(ts.url).request('/api/auth/sign-up/email', { json: { name: 'Pic', email: 'pic@example.com', password: 'secret123', image: 'http://169.254.169.254/latest/meta-data/' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('Profile pictures are not supported.');
    expect(await counts()).toEqual(before);
  });

  it('stores SQL-looking names verbatim', async () => {
    const name = "Robert'); DROP TABLE account;--";
    const client = await signUpVerified(ts, { email: 'bobby@example.com', name });
    const me = await client.trpcQuery('account.me');
    expect(me.body.result.data.user.name).toBe(name);
    const profile = await ts.testDb.db.selectFrom('profile').innerJoin('user', 'user.id', 'profile.id').select('full_name').where('user.email', '=', 'bobby@example.com').executeTakeFirstOrThrow();
    expect(profile.full_name).toBe(name);
  });

  it('keeps a session across requests and ends it on sign-out', async () => {
    const c = await signUpVerified(ts, { email: 'session@example.com' });
    expect((await c.trpcQuery('account.me')).status).toBe(200);
    expect((await c.trpcQuery('account.me')).status).toBe(200);
    const out = await c.request('/api/auth/sign-out', { json: {} });
    expect(out.status).toBe(200);
    expect((await c.trpcQuery('account.me')).status).toBe(401);
  });
});

describe('sign-up timing', () => {
  // A new address costs a user, an account and a mail, a taken one a note only: the answers are the
  // same, and so is the time they take (AUTH_ANSWER_FLOOR_MS, 1000 by default outside tests). So
  // for reset and verification mails.
  const FLOOR_MS = 1200;
  let padded: TestServer;
  beforeAll(async () => {
    padded = await startTestServer({ env: { AUTH_ANSWER_FLOOR_MS: String(FLOOR_MS) } });
  });
  afterAll(async () => {
    await padded?.stop();
  });

  it('holds every answer, for a new address and for a taken one, until the floor, so its timing tells nothing', async () => {
    await signUpVerified(padded, { email: 'taken@example.com' });
    const signUp = async (email: string) => {
      const started = performance.now();
      const res = await fetch(`${padded.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: padded.url },
        body: JSON.stringify({ name: 'Timing', email, password: 'secret123' }),
      });
      const body = (await res.json()) as { token: unknown; user: Record<string, unknown> };
      return { status: res.status, ms: performance.now() - started, keys: Object.keys(body.user).sort(), token: body.token };
    };
    const answers = [await signUp('new-1@example.com'), await signUp('taken@example.com'), await signUp('new-2@example.com'), await signUp('taken@example.com')];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.token).toBeNull();
      expect(a.ms).toBeGreaterThanOrEqual(FLOOR_MS - 1);
    }
    expect(answers[1]!.keys).toEqual(answers[0]!.keys);

    // A reset link or a verification mail: asked for an address with an account and for one without.
    for (const [route, body] of [
      ['/api/auth/request-password-reset', { redirectTo: '/auth?step=reset' }],
      ['/api/auth/send-verification-email', { callbackURL: '/dashboard' }],
    ] as const) {
      for (const email of ['taken@example.com', 'nobody@example.com']) {
        const started = performance.now();
        const res = await fetch(`${padded.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: padded.url }, body: JSON.stringify({ email, ...body }) });
        await res.text();
        expect({ route, email, status: res.status, held: performance.now() - started >= FLOOR_MS - 1 }).toEqual({ route, email, status: 200, held: true });
      }
    }
  });
});
