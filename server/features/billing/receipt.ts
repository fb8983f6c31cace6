// A payment's receipt as a self-contained HTML page (printable to PDF from the browser), carrying
// the account's company name. Only payments of the caller's account are found.
import type { Db } from '../../../db/client';
import { formatMinorAmount, planByType } from '../../contracts/plans';
import { AppError } from '../../lib/app-error';
import { formatUtcDayRange } from '../../lib/dates';
import { formatDay } from './billing-mail';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function receiptHtml(db: Db, o: { accountId: string; paymentId: string }): Promise<{ html: string; fileName: string }> {
  const pay = await db
    .selectFrom('payment')
    .innerJoin('account', 'account.id', 'payment.account_id')
    .leftJoin('profile', 'profile.id', 'account.owner_id')
    .leftJoin('user', 'user.id', 'account.owner_id')
    .select(['payment.id', 'payment.plan', 'payment.interval', 'payment.currency', 'payment.amount', 'payment.refunded_amount', 'payment.status', 'payment.period_start', 'payment.period_end', 'payment.created_at', 'payment.refunded_at', 'profile.company_name', 'profile.full_name', 'user.email'])
    .where('payment.id', '=', o.paymentId)
    .where('payment.account_id', '=', o.accountId)
    .executeTakeFirst();
  if (!pay || pay.status === 'failed') throw new AppError('NOT_FOUND', 'We could not find this payment for your account.');
  const company = pay.company_name?.trim() || pay.full_name?.trim() || pay.email || '';
  const plan = planByType(pay.plan).name;
  const period = pay.period_start && pay.period_end ? formatUtcDayRange(pay.period_start, pay.period_end) : '—';
  const rows: Array<[string, string]> = [
    ['Receipt for', company],
    ['Date', formatDay(pay.created_at)],
    ['Plan', `${plan} (${pay.interval === 'annual' ? 'annual' : 'monthly'})`],
    ['Period', period],
    ['Amount', formatMinorAmount(pay.amount, pay.currency)],
    ['Currency', pay.currency],
    [
      'Status',
      pay.status === 'refunded'
        ? `Refunded${pay.refunded_at ? ` on ${formatDay(pay.refunded_at)}` : ''}`
        : pay.refunded_amount > 0
          ? `Paid; ${formatMinorAmount(pay.refunded_amount, pay.currency)} refunded`
          : 'Paid',
    ],
    ['Payment ID', pay.id],
  ];
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mailvet receipt ${esc(pay.id)}</title>
<style>body{font-family:system-ui,sans-serif;color:#0f172a;max-width:640px;margin:40px auto;padding:0 16px}h1{font-size:22px}table{width:100%;border-collapse:collapse;margin-top:16px}td{padding:8px;border-bottom:1px solid #e2e8f0}td:first-child{color:#64748b;width:35%}footer{margin-top:32px;color:#64748b;font-size:13px}</style>
</head><body>
<h1>Mailvet — Receipt</h1>
<table>${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</table>
<footer>Payments are processed by Razorpay. Questions: support@mailvet.io</footer>
</body></html>`;
  return { html, fileName: `mailvet-receipt-${pay.id.replace(/[^A-Za-z0-9_-]/g, '')}.html` };
}
