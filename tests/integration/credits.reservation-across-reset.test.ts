// A real-time check takes its credit before the probe answers and gives it back when the probe
// fails or the answer is undecided. The monthly reset (or a billing period's refill) may land in
// between: on a plan without rollover it sets the balance to the new month's credits, so giving the
// old month's credit back on top handed the account one credit more than its plan (10,001 on
// Starter). The credit goes back only to the balance it was taken from: the same usage period, or a
// plan whose reset carried that balance over.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../db/types';
import { planByType } from '../../server/contracts/plans';
import { resetMonthlyQuotas } from '../../server/features/credits/monthly-reset';
import { checkSingleEmail } from '../../server/features/validation/validation.service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

/** A probe that holds every request until released, then fails it (503). */
async function stallingProbe(): Promise<{ url: string; arrived: Promise<void>; release: () => void; close: () => Promise<void> }> {
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  let open!: () => void;
  const released = new Promise<void>((r) => (open = r));
  const server = http.createServer((req, res) => {
    arrive();
    req.resume();
    void released.then(() => res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    release: open,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

async function checkAcrossReset(plan: Plan, credits: number) {
  const { accountId, userId } = await seedAccount(tdb.db, { plan, credits });
  await tdb.db.updateTable('account').set({ usage_period_start: '2027-05-01', monthly_validations_used: 40 }).where('id', '=', accountId).execute();
  const probe = await stallingProbe();
  try {
    const check = checkSingleEmail({ db: tdb.db, probe: { urls: [probe.url], token: 't' } }, { accountId, userId, plan, email: 'ann@example.com' }).then(
      () => 'answered',
      (err: unknown) => (err as { code?: string }).code ?? String(err),
    );
    await probe.arrived; // the credit is taken, the probe is being asked
    await resetMonthlyQuotas(tdb.db, new Date('2027-06-01T00:05:00Z'));
    probe.release();
    expect(await check).toBe('UPSTREAM_UNAVAILABLE');
  } finally {
    await probe.close();
  }
  return tdb.db.selectFrom('account').select(['credits_balance', 'monthly_validations_used']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

describe('a real-time check whose credit goes back after the monthly reset', () => {
  it('leaves a plan without rollover at exactly its monthly credits', { timeout: 30_000 }, async () => {
    const monthly = planByType('starter').monthlyValidations;
    expect(await checkAcrossReset('starter', 300)).toEqual({ credits_balance: monthly, monthly_validations_used: 0 });
  });

  it('gives it back on a plan with rollover (the old balance was carried over)', { timeout: 30_000 }, async () => {
    const monthly = planByType('pro').monthlyValidations;
    expect(await checkAcrossReset('pro', 300)).toEqual({ credits_balance: 300 + monthly, monthly_validations_used: 0 });
  });
});
