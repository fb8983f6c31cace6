// Single checks whose verdict the syntax check alone decides (bad syntax, address literals) are
// answered in the server with the probe library (probe/syntax/decide.ts), without a round trip to a
// probe daemon, and charged + stored in one statement batched per account
// (features/validation/store-batch.ts). Proved here: the answer is exactly what a real daemon
// answers (verdict, reason, every field, the stored row), a server whose probe is down still answers
// them, and batched charging stays exact (balance, usage, rows, 402s, suspension).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProbeDaemon } from '../../probe/daemon/server';
import { decideBySyntax } from '../../probe/syntax/decide';
import type { Depth, VerificationResult } from '../../probe/contract';
import { isCharged } from '../../server/contracts/charging';
import { toPublicResult } from '../../server/contracts/public-api';
import { resultRow } from '../../server/features/validation/results.queries';
import { chargeAndStoreDecided } from '../../server/features/credits/decided-checks';
import { probeOne } from '../../server/features/validation/validation.service';
import { ownerOn, type Person } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { freePort } from '../probe/mailworld-helpers';

const TOKEN = 'syntax-decided-token';
const DECIDED = [
  'not-an-email@@example.com',
  'plainaddress',
  '@no-local.example',
  'a..b@example.com',
  'trailing.@example.com',
  `${'a'.repeat(65)}@example.com`,
  'user@exa mple.com',
  'user@-bad-.example',
  'user@[192.0.2.1]',
  'admin@[IPv6:2001:db8::1]',
  '"quoted local"@[198.51.100.7]',
];

let daemon: { url: string; close(): Promise<void> };
/** A server whose probe is a closed port: anything that needed the probe would be a 503. */
let ts: TestServer;
let owner: Person;
let key: string;

beforeAll(async () => {
  // DNS to a closed loopback port: nothing here may need it, and nothing leaves the machine.
  daemon = await startProbeDaemon({ port: await freePort(), host: '127.0.0.1', token: TOKEN, probe: { dnsServers: ['127.0.0.1:9'], dnsTimeoutMs: 200 } });
  ts = await startTestServer({ probeUrls: [`http://127.0.0.1:${await freePort()}`], probeToken: TOKEN });
  owner = await ownerOn(ts, 'business', 'syntax');
  await ts.testDb.db.updateTable('account').set({ credits_balance: 1000 }).where('id', '=', owner.accountId).execute();
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'syntax' })).body.result.data.api_key;
}, 120_000);
afterAll(async () => {
  await ts?.stop();
  await daemon?.close();
});

const withoutMs = (r: VerificationResult) => ({ ...r, ms: 0 });

async function account() {
  return ts.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', owner.accountId).executeTakeFirstOrThrow();
}

describe('verdicts the syntax check decides', () => {
  it('are exactly what the probe daemon answers, at every depth', async () => {
    for (const depth of ['syntax', 'mx', 'smtp'] as Depth[]) {
      for (const email of DECIDED) {
        const local = decideBySyntax(email, depth);
        expect(local.decided, email).toBe(true);
        const remote = await probeOne({ urls: [daemon.url], token: TOKEN }, email, depth);
        if (local.decided) expect(withoutMs(local.result), `${email} at ${depth}`).toEqual(withoutMs(remote));
      }
    }
  });

  it('leave an address that needs DNS to the probe (a 503 when it is down, no credit taken)', async () => {
    expect(decideBySyntax('jane@example.com', 'smtp').decided).toBe(false);
    const before = await account();
    const res = await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'jane@example.com' }) });
    expect(res.status).toBe(503);
    expect(await account()).toEqual(before);
  });

  it('are answered over /v1 with the probe down, the same JSON and stored row as the daemon gives, charged by the fair-charging rule', async () => {
    const seen = new Set<boolean>();
    for (const email of DECIDED) {
      const remote = await probeOne({ urls: [daemon.url], token: TOKEN }, email, 'smtp');
      const before = await account();
      const res = await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      expect(res.status, email).toBe(200);
      const charged = isCharged(remote);
      expect(await res.json()).toEqual(toPublicResult({ ...remote, charged }));
      const after = await account();
      expect(after, email).toEqual({ credits_balance: before.credits_balance - (charged ? 1 : 0), monthly_validations_used: before.monthly_validations_used + (charged ? 1 : 0) });
      const row = await ts.testDb.db.selectFrom('validation_result').selectAll().where('account_id', '=', owner.accountId).orderBy('id', 'desc').executeTakeFirstOrThrow();
      const { id, checked_at, ...stored } = row;
      expect(id).toBeGreaterThan(0);
      expect(checked_at).toBeInstanceOf(Date);
      const expected = resultRow({ accountId: owner.accountId, jobId: null, userId: null, email, result: remote });
      expect(stored, email).toEqual({ ...expected, evidence: JSON.parse(expected.evidence as string), charged });
      seen.add(charged);
    }
    // Both kinds were among them: bad syntax costs a credit, an address literal none (fair charging).
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('stores an address with a lone surrogate as a text parameter would (U+FFFD), never a 500', async () => {
    const email = 'lone\ud800surrogate@example.com';
    expect(decideBySyntax(email, 'smtp').decided).toBe(true);
    const res = await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: 'invalid', reason: 'syntax', syntax_valid: false });
    const row = await ts.testDb.db.selectFrom('validation_result').select('email').where('account_id', '=', owner.accountId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.email).toBe('lone\ufffdsurrogate@example.com');
  });

  it('on the dashboard too (the Free plan at MX depth), with the balance in the answer', async () => {
    const free = await ownerOn(ts, 'free', 'syntax-free');
    const res = await free.client.trpcMutation('validation.check', { email: 'not-an-email@@example.com' });
    expect(res.status).toBe(200);
    const remote = await probeOne({ urls: [daemon.url], token: TOKEN }, 'not-an-email@@example.com', 'mx');
    expect(res.body.result.data).toMatchObject({ verdict: remote.verdict, reason: remote.reason, depth: 'mx', evidence: remote.evidence, charged: true, credits_balance: 499 });
  });
});

describe('batched charging of decided checks', () => {
  it('30 concurrent checks for 7 credits: exactly 7 answers, each with its own balance, 23 × 402, nothing else written', async () => {
    const p = await ownerOn(ts, 'enterprise', 'syntax-race'); // 100 requests per second: none of the 30 is rate-limited
    await ts.testDb.db.updateTable('account').set({ credits_balance: 7, monthly_validations_used: 0 }).where('id', '=', p.accountId).execute();
    const k = (await p.client.trpcMutation('apiKeys.create', { name: 'race' })).body.result.data.api_key;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: `bad${i}@@example.com` }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code?: string } })),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(7);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(23);
    for (const r of refused) expect(r).toMatchObject({ status: 402, body: { code: 'INSUFFICIENT_CREDITS' } });
    const acct = await ts.testDb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', p.accountId).executeTakeFirstOrThrow();
    expect(acct).toEqual({ credits_balance: 0, monthly_validations_used: 7 });
    const rows = await ts.testDb.db.selectFrom('validation_result').select('email').where('account_id', '=', p.accountId).execute();
    expect(rows).toHaveLength(7);
  });

  it('one statement, in order: uncharged results need a credit there but take none; the excess is refused; a suspended account stores nothing', async () => {
    const p = await ownerOn(ts, 'business', 'syntax-batch');
    const db = ts.testDb.db;
    await db.updateTable('account').set({ credits_balance: 2, monthly_validations_used: 0 }).where('id', '=', p.accountId).execute();
    const decided = (email: string) => {
      const d = decideBySyntax(email, 'smtp');
      if (!d.decided) throw new Error(email);
      return { row: resultRow({ accountId: p.accountId, jobId: null, userId: null, email, result: d.result }), charged: isCharged(d.result) };
    };
    const checks = [decided('a@@x.example'), decided('b@[192.0.2.1]'), decided('c@@x.example'), decided('d@[192.0.2.2]'), decided('e@@x.example')];
    expect(checks.map((c) => c.charged)).toEqual([true, false, true, false, true]);
    const out = await chargeAndStoreDecided(db, p.accountId, checks);
    expect(out.map((o) => (o.kind === 'stored' ? `${o.kind}:${o.balance}:${o.charged}` : o.kind))).toEqual(['stored:1:true', 'stored:1:false', 'stored:0:true', 'insufficient', 'insufficient']);
    const ids = out.flatMap((o) => (o.kind === 'stored' ? [o.id] : []));
    const rows = await db.selectFrom('validation_result').select(['id', 'email', 'charged']).where('account_id', '=', p.accountId).orderBy('id').execute();
    expect(rows.map((r) => ({ ...r, id: Number(r.id) }))).toEqual([
      { id: ids[0], email: 'a@@x.example', charged: true },
      { id: ids[1], email: 'b@[192.0.2.1]', charged: false },
      { id: ids[2], email: 'c@@x.example', charged: true },
    ]);
    expect(await db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', p.accountId).executeTakeFirstOrThrow()).toEqual({ credits_balance: 0, monthly_validations_used: 2 });

    await db.updateTable('account').set({ credits_balance: 5, subscription_status: 'suspended' }).where('id', '=', p.accountId).execute();
    const suspended = await chargeAndStoreDecided(db, p.accountId, [decided('f@@x.example'), decided('g@[192.0.2.3]')]);
    expect(suspended.map((o) => o.kind)).toEqual(['suspended', 'suspended']);
    expect(await db.selectFrom('validation_result').select('id').where('account_id', '=', p.accountId).execute()).toHaveLength(3);
    expect((await db.selectFrom('account').select('credits_balance').where('id', '=', p.accountId).executeTakeFirstOrThrow()).credits_balance).toBe(5);
  });
});
