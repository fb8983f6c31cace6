// Fuzz: a few thousand generated bodies and addresses, thrown at a running server (web + probe
// daemon on a simulated mail internet) on both channels (dashboard tRPC, single and batched, and
// /v1) and on the other doors that read bodies (better-auth sign-in, the CSV upload). Deterministic
// (seeded) and bounded in count and time. Asserts: no 5xx; no job and no debit after a 4xx; no
// TCP connection to anything outside 127.0.0.0/8.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeStack } from '../helpers/probe-stack';
import { signUpVerified, type Browserless } from '../helpers/test-server';
import { buildScenarios } from '../mailworld/index';

const INPUTS_PER_KIND = 800; // × 3 kinds (bodies, addresses, addresses)
const LANES = 6; // accounts fuzzed side by side, each sequentially (so a 4xx's side effects are attributable)
const TIME_BUDGET_MS = 60_000;
const TOKEN = 'fuzz-probe-token';

/** Every TCP destination this process dialled (server, probe and mail world all run here). */
const dialled = new Set<string>();
const originalConnect = net.Socket.prototype.connect;

interface Lane {
  owner: Browserless;
  accountId: string;
  apiKey: string;
}
const lanes: Lane[] = [];

beforeAll(async () => {
  net.Socket.prototype.connect = function patchedConnect(this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; path?: string } | number | string | unknown[];
    const opts = Array.isArray(first) ? (first[0] as { host?: string; path?: string }) : first;
    const host = typeof opts === 'object' && opts !== null ? opts.host : typeof args[1] === 'string' ? args[1] : undefined;
    const isPath = typeof opts === 'object' && opts !== null && typeof opts.path === 'string';
    if (!isPath) {
      if (host && net.isIP(host)) dialled.add(host);
      this.once('lookup', (_err: Error | null, address: string) => address && dialled.add(address));
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
});
afterAll(() => {
  net.Socket.prototype.connect = originalConnect;
});

// Started after the patch above, so every connection they make is counted.
const stack = probeStack({ token: TOKEN, domains: buildScenarios().filter((d) => /^(normal|catch-all|null-mx|no-mx)\./.test(d.domain)), role: 'web' });

beforeAll(async () => {
  for (let i = 0; i < LANES; i++) {
    const owner = await signUpVerified(stack.ts, { email: `fuzz-owner-${i}@example.com` });
    const accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
    await stack.ts.testDb.db.updateTable('account').set({ plan: 'enterprise', credits_balance: 100_000 }).where('id', '=', accountId).execute();
    const apiKey = (await owner.trpcMutation('apiKeys.create', { name: 'fuzz' })).body.result.data.api_key as string;
    lanes.push({ owner, accountId, apiKey });
  }
});

/** mulberry32: small, seeded, good enough to pick cases. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(0x5eed);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const int = (max: number) => Math.floor(random() * max);

const HOSTILE_CHARS = ['\r', '\n', '\r\n', '\t', ' ', '\u00a0', '\u200b', '\u200c', '\u200d', '\u202e', '\u200f', '\ufeff', '\ufffd', '\ud800', '\udfff', '\ufdd0', '\uffff', '\u0000', '\u007f', '\u00ad', '"', '\\', '(', ')', '<', '>', '[', ']', ',', ';', ':', '@', '.', '..', '%', '+', '=', '😀', 'é', 'ß', 'Ω', '‮', '\u2028'];
const DOMAINS = ['normal.mailworld.test', 'catch-all.mailworld.test', 'null-mx.mailworld.test', 'no-mx.mailworld.test', 'missing.mailworld.test', 'xn--bcher-kva.mailworld.test', 'bücher.mailworld.test', 'xn--ls8h.mailworld.test', '[127.0.0.1]', '[IPv6:::1]', '[10.0.0.1]', 'localhost', '127.0.0.1', 'example.com', 'a'.repeat(70) + '.test', ''];
const LOCALS = ['alice', 'bob', 'ghost', '"quoted local"', 'postmaster', 'a.b+c', '', 'x'.repeat(70)];

function fuzzAddress(): string {
  let local = pick(LOCALS);
  let domain = pick(DOMAINS);
  for (let i = int(3); i > 0; i--) {
    const c = pick(HOSTILE_CHARS);
    if (random() < 0.5) local = local.slice(0, int(local.length + 1)) + c + local.slice(int(local.length + 1));
    else domain = domain.slice(0, int(domain.length + 1)) + c + domain.slice(int(domain.length + 1));
  }
  const at = random() < 0.9 ? '@' : pick(['', '@@', '＠']);
  const pad = random() < 0.2 ? pick([' ', '\t', '\u00a0', '\r\n', '\u200b']) : '';
  return `${pad}${local}${at}${domain}${random() < 0.2 ? pad : ''}`;
}

function fuzzJsonValue(depth: number): unknown {
  const r = random();
  if (depth > 70 || r < 0.3) return pick<unknown>([null, true, 0, -1, 1e308, 'x', fuzzAddress(), '', {}, []]);
  if (r < 0.6) return Array.from({ length: int(4) }, () => fuzzJsonValue(depth + 1 + int(20)));
  const o: Record<string, unknown> = {};
  for (const k of Array.from({ length: int(4) }, () => pick(['email', 'emails', 'webhook_url', '__proto__', 'constructor', 'prototype', 'a', '']))) o[k] = fuzzJsonValue(depth + 1 + int(20));
  return o;
}

interface Attempt {
  target: Target;
  body: string | Buffer;
  contentType?: string;
}

const TARGETS = ['trpc', 'trpc-batch', 'v1-validate', 'v1-bulk', 'auth-sign-in', 'upload'] as const;
type Target = (typeof TARGETS)[number];

function fuzzCsv(): Buffer | string {
  const r = random();
  if (r < 0.5) return ['email', ...Array.from({ length: int(30) }, fuzzAddress)].join(pick(['\n', '\r\n', '\r']));
  if (r < 0.7) return Buffer.from(Array.from({ length: int(400) }, () => int(256)));
  if (r < 0.8) return `${'['.repeat(int(5000))}a@b.test`;
  if (r < 0.9) return Buffer.from(`\ufeffemail\r\n${fuzzAddress()}\r\n`, pick(['utf16le', 'latin1', 'utf8'] as const));
  return `email,name\n"${fuzzAddress()}",=HYPERLINK("x")\n${'"'.repeat(int(20))}`;
}

function fuzzBody(): Attempt {
  const target = pick(TARGETS);
  if (target === 'upload') return { target, body: fuzzCsv(), ...(random() < 0.8 ? { contentType: pick(['text/csv', 'text/csv; charset=utf-8', 'application/octet-stream', 'application/json', 'multipart/form-data; boundary=x']) } : {}) };
  const r = random();
  let body: string | Buffer;
  if (r < 0.55) body = JSON.stringify(fuzzJsonValue(0));
  else if (r < 0.7) body = `${'['.repeat(1 + int(3000))}${pick(['"a@b.test"', '{', '', '1'])}${']'.repeat(int(3000))}`;
  else if (r < 0.8) body = Buffer.from(Array.from({ length: int(300) }, () => int(256)));
  else if (r < 0.9) body = JSON.stringify({ email: 'a'.repeat(int(200_000)) });
  else body = JSON.stringify({ emails: Array.from({ length: int(50) }, fuzzAddress), webhook_url: pick(['https://93.184.215.14/h', 'https://[::127.0.0.1]/h', 'https://93.184.215.14:6379/', 'http://127.0.0.1/', 'https://[64:ff9b::a00:1]/', 'ftp://x/', 42]) });
  const contentType = pick([undefined, 'application/json', 'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-7', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']);
  return { target, body, ...(contentType ? { contentType } : {}) };
}

function fuzzAddressAttempt(): Attempt {
  const target = pick(TARGETS);
  if (target === 'upload') return { target, body: ['email', ...Array.from({ length: 1 + int(3) }, fuzzAddress)].join('\n'), contentType: 'text/csv' };
  let body: string;
  if (target === 'v1-bulk') body = JSON.stringify({ emails: Array.from({ length: 1 + int(3) }, fuzzAddress) });
  else if (target === 'trpc-batch') body = JSON.stringify({ 0: { email: fuzzAddress() }, 1: { email: fuzzAddress() } });
  else if (target === 'auth-sign-in') body = JSON.stringify({ email: fuzzAddress(), password: 'not-the-password' });
  else body = JSON.stringify({ email: fuzzAddress() });
  return { target, body, contentType: 'application/json' };
}

const PATHS: Record<Target, string> = {
  trpc: '/api/trpc/validation.check',
  'trpc-batch': '/api/trpc/validation.check,validation.check?batch=1',
  'v1-validate': '/v1/validate',
  'v1-bulk': '/v1/bulk',
  'auth-sign-in': '/api/auth/sign-in/email',
  upload: '/api/jobs/upload?filename=fuzz.csv',
};

async function send(lane: Lane, a: Attempt): Promise<number> {
  const auth: Record<string, string> = a.target.startsWith('v1-') ? { authorization: `Bearer ${lane.apiKey}` } : { cookie: [...lane.owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: stack.ts.url };
  const res = await fetch(`${stack.ts.url}${PATHS[a.target]}`, { method: 'POST', headers: { ...auth, ...(a.contentType ? { 'content-type': a.contentType } : {}) }, body: a.body });
  await res.arrayBuffer();
  return res.status;
}

async function ledger(accountId: string): Promise<string> {
  const acc = await stack.ts.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const jobs = await stack.ts.testDb.pool.query(`select count(*)::int as n from validation_job where account_id = $1`, [accountId]);
  return `${acc.credits_balance}/${acc.monthly_validations_used}/${jobs.rows[0].n}`;
}

describe('fuzzing both channels', () => {
  it('answers every generated body and address with a non-5xx, changes nothing on a 4xx, and dials only 127.0.0.0/8', { timeout: TIME_BUDGET_MS + 60_000 }, async () => {
    const attempts: Attempt[] = [];
    for (let i = 0; i < INPUTS_PER_KIND; i++) attempts.push(fuzzBody(), fuzzAddressAttempt(), fuzzAddressAttempt());
    const statuses = new Map<number, number>();
    const byTarget = new Map<Target, Map<number, number>>();
    const fiveXx: string[] = [];
    const sideEffects: string[] = [];
    const deadline = Date.now() + TIME_BUDGET_MS;
    let sent = 0;
    let next = 0;
    await Promise.all(
      lanes.map(async (lane) => {
        while (next < attempts.length && Date.now() < deadline) {
          const a = attempts[next++]!;
          const before = await ledger(lane.accountId);
          const status = await send(lane, a);
          sent++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const perTarget = byTarget.get(a.target) ?? new Map<number, number>();
          perTarget.set(status, (perTarget.get(status) ?? 0) + 1);
          byTarget.set(a.target, perTarget);
          if (status >= 500) fiveXx.push(`${status} ${a.target} ${String(a.body).slice(0, 120)}`);
          if (status >= 400 && status < 500 && (await ledger(lane.accountId)) !== before) sideEffects.push(`${status} ${a.target} ${String(a.body).slice(0, 120)}`);
        }
      }),
    );
    const tally = (m: Map<number, number>) => [...m].sort(([x], [y]) => x - y).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`[fuzz] sent ${sent} of ${attempts.length} inputs; statuses: ${tally(statuses)}; dialled: ${[...dialled].join(', ')}`);
    for (const [t, m] of byTarget) console.log(`[fuzz]   ${t}: ${tally(m)}`);
    expect(sent).toBeGreaterThan(1000); // a floor on coverage; the time budget bounds the rest (a loaded machine sends fewer)
    expect(fiveXx).toEqual([]);
    expect(sideEffects).toEqual([]);
    expect([...dialled].filter((ip) => !/^127\./.test(ip) && ip !== '::1' && ip !== '::ffff:127.0.0.1')).toEqual([]);
    // Both outcomes were exercised: refusals and real answers.
    expect([...statuses.keys()].some((s) => s === 200)).toBe(true);
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
    expect([...byTarget.keys()].sort()).toEqual([...TARGETS].sort());
  });
});
