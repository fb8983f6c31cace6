// Production cannot run test paths by accident: developer tools (dev outbox, test checkout) exist
// only when switched on, the outbox answers loopback clients only, and settings that open holes
// are refused at start in production.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEnv } from '../../server/env';
import { isLoopbackSocket, namesThisMachine } from '../../server/http/dev-outbox';
import { uniqueEmail } from '../helpers/accounts';
import { Browserless, signUpVerified, testServer } from '../helpers/test-server';

const PROD = { NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(40), BASE_URL: 'https://mailvet.example.com', SMTP_URL: 'smtps://u:p@relay.example.com:465' } as const;

describe('environment', () => {
  it('refuses DEV_TOOLS, WEBHOOK_ALLOW_PRIVATE, AUTH_RATE_LIMIT=false and a short AUTH_ANSWER_FLOOR_MS in production, naming each', () => {
    expect(() => readEnv({ ...PROD, DEV_TOOLS: 'true' })).toThrow(/DEV_TOOLS/);
    expect(() => readEnv({ ...PROD, WEBHOOK_ALLOW_PRIVATE: 'true' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(() => readEnv({ ...PROD, AUTH_RATE_LIMIT: 'false' })).toThrow(/AUTH_RATE_LIMIT/);
    expect(() => readEnv({ ...PROD, RAZORPAY_BASE_URL: 'http://127.0.0.1:4010' })).toThrow(/RAZORPAY_BASE_URL: must be https/);
    // The tests' 0 would let answer timing tell which addresses have an account.
    expect(() => readEnv({ ...PROD, AUTH_ANSWER_FLOOR_MS: '0' })).toThrow(/AUTH_ANSWER_FLOOR_MS: must be at least 500 in production/);
    expect(readEnv({ ...PROD, AUTH_ANSWER_FLOOR_MS: '1500' }).AUTH_ANSWER_FLOOR_MS).toBe(1500);
    const ok = readEnv({ ...PROD, WEBHOOK_ALLOW_PRIVATE: 'false', DEV_TOOLS: 'false' });
    expect(ok).toMatchObject({ DEV_TOOLS: false, WEBHOOK_ALLOW_PRIVATE: false, AUTH_RATE_LIMIT: true, AUTH_ANSWER_FLOOR_MS: 1000 });
  });

  it('refuses production over plain http or with a short auth secret, probe token or Razorpay webhook secret (cookies in clear text; forgeable links and cookies; a guessable probe token; forgeable payments), naming each', () => {
    expect(() => readEnv({ ...PROD, BASE_URL: 'http://mailvet.example.com' })).toThrow(/BASE_URL: must be https/);
    expect(() => readEnv({ ...PROD, BETTER_AUTH_SECRET: 'changeme' })).toThrow(/BETTER_AUTH_SECRET: must be at least 32 characters/);
    expect(readEnv({ ...PROD, BETTER_AUTH_SECRET: 'y'.repeat(32) }).BASE_URL).toBe('https://mailvet.example.com');
    // The bearer token to the probe daemons: a guessable one lets anyone who reaches a daemon probe through it.
    expect(() => readEnv({ ...PROD, PROBE_URLS: 'http://probe-1:8025', PROBE_TOKEN: 'changeme' })).toThrow(/PROBE_TOKEN: must be at least 32 characters/);
    expect(readEnv({ ...PROD, PROBE_URLS: 'http://probe-1:8025', PROBE_TOKEN: 'p'.repeat(32) }).PROBE_TOKEN).toBe('p'.repeat(32));
    // Razorpay's webhook is believed on its signature alone (a subscription.charged upgrades the plan): a
    // secret like Razorpay's own example '12345' is guessed in a few thousand forged posts.
    const keys = { RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 'k'.repeat(24) };
    expect(() => readEnv({ ...PROD, ...keys, RAZORPAY_WEBHOOK_SECRET: '12345' })).toThrow(/RAZORPAY_WEBHOOK_SECRET: must be at least 32 characters/);
    expect(readEnv({ ...PROD, ...keys, RAZORPAY_WEBHOOK_SECRET: 'w'.repeat(32) }).RAZORPAY_WEBHOOK_SECRET).toBe('w'.repeat(32));
    // Outside production both stay allowed (npm start on http://localhost).
    expect(readEnv({ NODE_ENV: 'development', BASE_URL: 'http://localhost:3000', BETTER_AUTH_SECRET: 'dev' }).BASE_URL).toBe('http://localhost:3000');
  });

  it('refuses production without a public BASE_URL (links in mail and the auth origin would say localhost)', () => {
    const { BASE_URL: _unset, ...withoutBase } = PROD;
    expect(() => readEnv(withoutBase)).toThrow(/BASE_URL/);
    expect(readEnv(PROD).BASE_URL).toBe('https://mailvet.example.com');
  });

  it('stops the start on a mistyped URL or proxy setting, naming the variable, instead of failing later or silently', () => {
    for (const [name, value] of [
      ['BASE_URL', 'mailvet.example.com'],
      ['BASE_URL', 'ftp://mailvet.example.com'],
      // Links in mail are BASE_URL + a path: anything past the origin (the app is served from the root) breaks them all.
      ['BASE_URL', 'https://mailvet.example.com/app'],
      ['BASE_URL', 'https://mailvet.example.com/?ref=1'],
      ['BASE_URL', 'https://mailvet.example.com/#top'],
      ['BASE_URL', 'https://admin:secret@mailvet.example.com'],
      ['GEO_URL', 'ipapi.co/{ip}/json/'],
      ['SMTP_URL', 'smtp//user:pass@relay.example.com:587'],
      ['SMTP_URL', 'https://relay.example.com'],
      ['TRUST_PROXY', 'lopback'],
      ['TRUST_PROXY', '10.0.0.0/33'],
      ['TRUST_PROXY', '-1'],
      ['PROBE_URLS', 'probe-1:8025'],
      ['PROBE_URLS', 'http://probe-1:8025,ftp://probe-2'],
      ['WEBHOOK_DNS_SERVERS', 'dns.example.com:53'],
      ['BRANDING_DNS_SERVERS', '127.0.0.1:99999'],
      ['AUTH_ANSWER_FLOOR_MS', '-5'],
      ['AUTH_ANSWER_FLOOR_MS', '1s'],
    ] as const) {
      expect(() => readEnv({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^Invalid environment:\\n  ${name}: `));
    }
    // One Razorpay key without the other: not a quiet fall-back to the test checkout (or to no payments).
    expect(() => readEnv({ RAZORPAY_KEY_ID: 'rzp_live_x' }, { laptop: true })).toThrow(/RAZORPAY_KEY_SECRET: required with RAZORPAY_KEY_ID/);
    expect(() => readEnv({ ...PROD, RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' })).toThrow(/RAZORPAY_KEY_ID: required with RAZORPAY_KEY_SECRET/);
    // Daemons without their token would answer 401 to every check: refused at start.
    expect(() => readEnv({ PROBE_URLS: 'http://probe-1:8025' })).toThrow(/PROBE_TOKEN: required with PROBE_URLS/);
    expect(readEnv({ PROBE_URLS: 'http://probe-1:8025, https://probe-2', PROBE_TOKEN: 't' }).PROBE_URLS).toBe('http://probe-1:8025, https://probe-2');
    expect(readEnv({ WEBHOOK_DNS_SERVERS: '127.0.0.1:5353, [::1]:53, 9.9.9.9, ::1' }).WEBHOOK_DNS_SERVERS).toEqual(['127.0.0.1:5353', '[::1]:53', '9.9.9.9', '::1']);
    // What the README offers is taken: names, addresses, ranges, and a hop count as a number.
    expect(readEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 203.0.113.7' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8, fd00::/8, 203.0.113.7');
    expect(readEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    // A value of spaces only (\`PORT= \` in an .env file) is unset, not port 0 (a random port) or a host named ' '.
    expect(readEnv({ PORT: ' ', HOST: ' ', WORKER_CONCURRENCY: '\t' })).toMatchObject({ PORT: 3000, HOST: '0.0.0.0', WORKER_CONCURRENCY: 4 });
    const { SMTP_URL: _relay, ...prodNoRelay } = PROD;
    expect(() => readEnv({ ...prodNoRelay, SMTP_URL: '  ' })).toThrow(/SMTP_URL: required in production/);
    // The origin with or without its trailing slash, and a port, are the app's URL.
    for (const base of ['https://mailvet.example.com/', 'https://mailvet.example.com', 'http://localhost:3000']) expect(readEnv({ BASE_URL: base }).BASE_URL, base).toBe(base);
    expect(readEnv({ SMTP_URL: 'smtps://u:p@relay.example.com:465', GEO_URL: 'http://127.0.0.1:9/{ip}/json' })).toMatchObject({ SMTP_URL: 'smtps://u:p@relay.example.com:465' });
  });

  it('refuses production without SMTP_URL (verification and reset mail would be stored, never sent), unless MAIL_STORE_ONLY=true says so', () => {
    const { SMTP_URL: _unset, ...noRelay } = PROD;
    expect(() => readEnv(noRelay)).toThrow(/\n {2}SMTP_URL: required in production/);
    expect(() => readEnv({ ...noRelay, MAIL_STORE_ONLY: 'false' })).toThrow(/SMTP_URL: required in production/);
    // The benches' explicit choice: stored, never sent (nobody can verify an address).
    const storeOnly = readEnv({ ...noRelay, MAIL_STORE_ONLY: 'true' });
    expect([storeOnly.SMTP_URL, storeOnly.MAIL_STORE_ONLY]).toEqual([undefined, true]);
    // A relay and "store only" at once is a contradiction: refused, named.
    expect(() => readEnv({ ...PROD, MAIL_STORE_ONLY: 'true' })).toThrow(/MAIL_STORE_ONLY: /);
    // Outside production the dev outbox needs no relay (npm start).
    expect(readEnv({}, { laptop: true }).SMTP_URL).toBeUndefined();
  });

  it('binds developer-tools servers to this machine unless HOST is set: the dev outbox and test checkout never reach the LAN by default', () => {
    expect(readEnv({}, { laptop: true })).toMatchObject({ DEV_TOOLS: true, HOST: '127.0.0.1' });
    expect(readEnv({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    // An explicit HOST is honoured (the test-only routes still answer loopback callers only).
    expect(readEnv({ HOST: '0.0.0.0' }, { laptop: true }).HOST).toBe('0.0.0.0');
    // Without developer tools (production, or npm start on a real database) the default stays every interface.
    expect(readEnv({ DATABASE_URL: 'postgres://db.example/mailvet' }, { laptop: true }).HOST).toBe('0.0.0.0');
    expect(readEnv(PROD).HOST).toBe('0.0.0.0');
  });

  it('keeps developer tools off unless asked: on for tests and for npm start with the embedded database only', () => {
    expect(readEnv({}).DEV_TOOLS).toBe(false); // NODE_ENV unset = development: not on by accident
    expect(readEnv({ NODE_ENV: 'test' }).DEV_TOOLS).toBe(true);
    expect(readEnv({}, { laptop: true }).DEV_TOOLS).toBe(true);
    expect(readEnv({ DATABASE_URL: 'postgres://db.example/mailvet' }, { laptop: true }).DEV_TOOLS).toBe(false);
    expect(readEnv({ ...PROD }, { laptop: true }).DEV_TOOLS).toBe(false);
    expect(readEnv({ DEV_TOOLS: 'false', NODE_ENV: 'test' }).DEV_TOOLS).toBe(false);
  });

  it('recognises loopback sockets only (IPv4 127/8, ::1, IPv4-mapped), never a LAN or public address', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopbackSocket(a)).toBe(true);
    for (const a of [undefined, '', '10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', '203.0.113.7', 'fe80::1', '127.0.0.1.evil']) expect(isLoopbackSocket(a)).toBe(false);
  });

  it('recognises the Host names of this machine only, never a name that merely starts or ends like one (DNS rebinding)', () => {
    for (const h of ['localhost', 'localhost:3000', 'LocalHost.:3000', 'app.localhost:5173', '127.0.0.1:3000', '127.9.8.7', '[::1]:3000', '0.0.0.0:3000', '[::]']) expect(namesThisMachine(h), h).toBe(true);
    for (const h of [undefined, '', 'attacker.example:3000', 'localhost.attacker.example', '127.0.0.1.nip.io:3000', 'mylocalhost', '10.0.0.5:3000', '[::ffff:10.0.0.5]', 'a@b']) expect(namesThisMachine(h), h).toBe(false);
  });
});

/** Runs `tsx server/main.ts web` (the Dockerfile's web role) with `env` only; its exit code and output. */
function runWebProcess(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts'), 'web'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000); // a process that started (the failure) is stopped
  return new Promise((resolve) => child.once('exit', (code) => (clearTimeout(timer), resolve({ code, output }))));
}

describe('a production process given a test flag', () => {
  // Everything a production web process needs, pointed at closed loopback ports: it must never get that far.
  const prod = { NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(40), BASE_URL: 'https://mailvet.example.com', WEBHOOK_SECRET_KEY: 'ab'.repeat(32), DATABASE_URL: 'postgres://mailvet:pw@127.0.0.1:9/mailvet', PROBE_URLS: 'http://127.0.0.1:9', PROBE_TOKEN: 't', PORT: '0' };

  it('refuses to start (exit 1, naming the flag) before it opens the database or a port', { timeout: 60_000 }, async () => {
    const run = await runWebProcess({ ...prod, DEV_TOOLS: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', AUTH_RATE_LIMIT: 'false' });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain('Refused in production (NODE_ENV=production):');
    for (const flag of ['DEV_TOOLS', 'WEBHOOK_ALLOW_PRIVATE', 'AUTH_RATE_LIMIT']) expect(run.output).toContain(`\n  ${flag}: `);
    expect(run.output).not.toContain('started');
    expect(run.output).not.toContain('ECONNREFUSED'); // refused before any connection was tried
  });
});

describe('a server without developer tools', () => {
  const ts = testServer({ env: { DEV_TOOLS: 'false' } });

  it('has no dev outbox and no test checkout', async () => {
    expect((await fetch(`${ts.url}/api/dev/outbox`)).status).toBe(404);
    const page = await fetch(`${ts.url}/dev/outbox`);
    expect(await page.text()).not.toContain('Dev outbox');
    // Sign-up still stores its mail (no SMTP relay here); read the link from the table directly.
    const email = uniqueEmail('nodev');
    const c = await signUpVerified(ts, { email });
    const config = await c.trpcQuery('billing.config');
    expect(config.body.result.data.mode).toBe('unavailable');
    const order = await c.trpcMutation('billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(order.status).toBeGreaterThanOrEqual(400);
    const pay = await c.trpcMutation('billing.completeTestPayment', { subscriptionId: 'sub_test_abc' });
    expect(pay.status).toBe(403);
    expect((await c.trpcQuery('account.me')).body.result.data.plan).toBe('free');
  });
});

describe('a server with developer tools', () => {
  const ts = testServer({ env: { DEV_TOOLS: 'true', HOST: '0.0.0.0' } });

  it('shows the dev outbox to this machine and 404 to a client on another address', async () => {
    const loop = new Browserless(ts.url);
    expect((await loop.request('/api/dev/outbox')).status).toBe(200);
    // The same server reached through a non-loopback interface address of this machine.
    const lan = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    expect(lan, 'this test needs one non-loopback IPv4 interface').toBeDefined();
    const port = new URL(ts.url).port;
    const remote = await fetch(`http://${lan!.address}:${port}/api/dev/outbox`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(remote.status).toBe(404);
    const page = await fetch(`http://${lan!.address}:${port}/dev/outbox`);
    expect(await page.text()).not.toContain('Dev outbox');
  });

  it('keeps the labelled test checkout to this machine: a LAN caller (Host, Origin and X-Forwarded-For all saying loopback) cannot pay with it', async () => {
    const owner = await signUpVerified(ts, { email: uniqueEmail('lanpay') });
    const cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    // Everything a browser on the LAN could send, claiming to be the loopback origin; only the socket differs.
    const lan = (method: 'GET' | 'POST', proc: string, input?: unknown) =>
      lanRequest(ts.url, method, `/api/trpc/${proc}`, { cookie, origin: ts.url, host: new URL(ts.url).host, 'x-forwarded-for': '127.0.0.1' }, input);
    // The test checkout does not exist for it: no "Test mode" offered, no test subscription opened.
    const config = await lan('GET', 'billing.config');
    expect(config.status).toBe(200);
    expect(config.body.result.data.mode).toBe('unavailable');
    const checkout = await lan('POST', 'billing.checkout', { planType: 'starter', interval: 'monthly' });
    expect(checkout.status).toBe(503);
    expect(checkout.body.error.message).toBe('Payments are not available right now. Please contact support.');
    // A subscription opened from this machine cannot be "paid" from the LAN either.
    expect((await owner.trpcQuery('billing.config')).body.result.data.mode).toBe('test');
    const { subscriptionId } = (await owner.trpcMutation('billing.checkout', { planType: 'starter' })).body.result.data;
    const pay = await lan('POST', 'billing.completeTestPayment', { subscriptionId });
    expect(pay.status).toBe(403);
    expect((await owner.trpcQuery('account.me')).body.result.data.plan).toBe('free');
    // From this machine the same payment goes through (the test checkout still works locally).
    const proof = await owner.trpcMutation('billing.completeTestPayment', { subscriptionId });
    expect(proof.status).toBe(200);
    expect((await owner.trpcMutation('billing.verifyPayment', proof.body.result.data)).status).toBe(200);
    expect((await owner.trpcQuery('account.me')).body.result.data.plan).toBe('starter');
  });
});

describe('a server with developer tools behind a tunnel or proxy on this machine (ngrok, cloudflared, a local nginx)', () => {
  const ts = testServer({ env: { DEV_TOOLS: 'true' } });

  it.each([
    ['X-Forwarded-For', { 'x-forwarded-for': '203.0.113.7' }],
    ['Forwarded', { forwarded: 'for=203.0.113.7;proto=https' }],
    ['X-Real-IP', { 'x-real-ip': '203.0.113.7' }],
    ['CF-Connecting-IP', { 'cf-connecting-ip': '203.0.113.7' }],
    ['Via (Apache, Squid, Varnish)', { via: '1.1 proxy.example' }],
    ['X-Forwarded-Proto alone', { 'x-forwarded-proto': 'https' }],
  ])('a request it forwards (%s) is not this machine: no dev outbox, no test checkout', async (_name, forwarded) => {
    const owner = await signUpVerified(ts, { email: uniqueEmail('tunnel') });
    const headers = { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: ts.url, ...forwarded };
    // The socket is loopback (the tunnel's), the caller is anyone on the internet.
    expect((await fetch(`${ts.url}/api/dev/outbox`, { headers })).status).toBe(404);
    expect(await (await fetch(`${ts.url}/dev/outbox`, { headers })).text()).not.toContain('Dev outbox');
    const config = (await (await fetch(`${ts.url}/api/trpc/billing.config`, { headers })).json()) as { result: { data: { mode: string } } };
    expect(config.result.data.mode).toBe('unavailable');
    // Nor the tests' geolocation stand-in's address.
    expect(await (await fetch(`${ts.url}/api/public-config`, { headers })).json()).toEqual({ currency: 'USD' });
    // Straight from this machine all are there.
    expect(((await (await fetch(`${ts.url}/api/public-config`)).json()) as { geoUrl?: string }).geoUrl).toBe('http://127.0.0.1:9/{ip}/json');
    expect((await fetch(`${ts.url}/api/dev/outbox`)).status).toBe(200);
    expect((await owner.trpcQuery('billing.config')).body.result.data.mode).toBe('test');
  });
});

describe('a server with developer tools and a page of another site rebound to 127.0.0.1 (DNS rebinding)', () => {
  const ts = testServer({ env: { DEV_TOOLS: 'true' } });

  // attacker.example resolves to the attacker's server, then to 127.0.0.1: the victim's browser now
  // sends that page's requests to the local server, from loopback, with Host attacker.example, and
  // lets the page read the answers (same origin, as far as the browser knows).
  it('answers a request whose Host is not a name of this machine as it answers the LAN: no dev outbox, no test checkout', async () => {
    const port = new URL(ts.url).port;
    const rebound = { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` };
    const get = (path: string, headers: Record<string, string> = rebound) => lanRequest(ts.url, 'GET', path, headers, undefined, '127.0.0.1');
    expect((await get('/api/dev/outbox')).status).toBe(404);
    expect((await get('/api/public-config')).body).toEqual({ currency: 'USD' });
    const owner = await signUpVerified(ts, { email: uniqueEmail('rebound') });
    const cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    expect((await get('/api/trpc/billing.config', { ...rebound, cookie })).body.result.data.mode).toBe('unavailable');
    // The names of this machine still reach them: localhost (and *.localhost), 127/8, [::1].
    for (const host of [`localhost:${port}`, `app.localhost:${port}`, `127.0.0.1:${port}`, `127.1.2.3:${port}`, `LOCALHOST:${port}`]) {
      expect((await get('/api/dev/outbox', { host })).status, host).toBe(200);
    }
    expect((await get('/api/trpc/billing.config', { host: `localhost:${port}`, origin: `http://localhost:${port}`, cookie })).body.result.data.mode).toBe('test');
  });
});

/** The first non-loopback IPv4 address of this machine (the test needs one). */
function lanAddress(): string {
  const a = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal);
  if (!a) throw new Error('this test needs one non-loopback IPv4 interface');
  return a.address;
}

/** A request to the test server through this machine's LAN address (or `address`), with the headers given (Host included). */
function lanRequest(url: string, method: string, path: string, headers: Record<string, string>, json?: unknown, address = lanAddress()): Promise<{ status: number; body: any }> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: address, port: Number(new URL(url).port), method, path, headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
