// The server writes dates in UTC (it knows no reader's time zone), and now says so. A grace period
// that ends at 02:00 UTC on January 15 ends on the evening of January 14 in the Americas: the mail
// that said "Your plan keeps working until January 15, 2027" had the owner pay a day late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../server/deps';
import type { MailMessage } from '../../server/mail/mailer';
import { sendBillingMails } from '../../server/features/billing/billing-mail';
import { receiptHtml } from '../../server/features/billing/receipt';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { seedAccount } from './jobs.world';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => {
  await tdb?.close();
});

describe('dates in billing mails and receipts', () => {
  it('are labelled UTC', async () => {
    const { accountId } = await seedAccount(tdb.db, { plan: 'pro' });
    const sent: MailMessage[] = [];
    const deps = { db: tdb.db, baseURL: 'http://127.0.0.1:9', mailer: { transport: 'outbox', send: async (m: MailMessage) => void sent.push(m) } } as unknown as AppDeps;
    const graceEndsAt = new Date('2027-01-15T02:00:00Z');
    await sendBillingMails(deps, [
      { accountId, kind: 'past_due', graceEndsAt },
      { accountId, kind: 'halted', graceEndsAt },
    ]);
    expect(sent).toHaveLength(2);
    for (const m of sent) expect(m.text).toContain('Your plan keeps working until January 15, 2027 (UTC);');

    const pay = await tdb.db
      .insertInto('payment')
      .values({ id: 'pay_utc_dates', account_id: accountId, plan: 'pro', interval: 'monthly', currency: 'USD', amount: 4900, status: 'captured', period_start: new Date('2027-01-01T00:30:00Z'), period_end: new Date('2027-02-01T00:30:00Z'), created_at: new Date('2027-01-01T00:30:00Z') } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const { html } = await receiptHtml(tdb.db, { accountId, paymentId: pay.id });
    expect(html).toContain('<td>Date</td><td>January 1, 2027 (UTC)</td>');
    expect(html).toContain('<td>Period</td><td>January 1, 2027 – February 1, 2027 (UTC)</td>');
  });
});
