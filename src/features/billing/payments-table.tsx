import { FileText } from 'lucide-react';
import { formatMinorAmount } from '../../../server/contracts/plans';
import { TableCard } from '../../components/ui/table';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/app-router';

type Payment = inferRouterOutputs<AppRouter>['billing']['payments'][number];

// "Nov 24, 2026": the Payments table's date and period, as every other table writes dates, so the table (and its Receipt link) fits a laptop's width.
const shortDay = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }) : '—');

/** Billing's Payments table: each payment's date, plan, period, amount, status and receipt link. */
export function PaymentsTable({ payments }: { payments: Payment[] | undefined }) {
  return (
    <TableCard>
      {payments && payments.length > 0 ? (
        <table className="min-w-full text-sm" data-testid="payments">
          <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
            <tr>
              <th className="px-4 py-2.5">Date (UTC)</th>
              <th className="px-4 py-2.5">Plan</th>
              <th className="px-4 py-2.5">Period (UTC)</th>
              <th className="px-4 py-2.5">Amount</th>
              <th className="px-4 py-2.5">Currency</th>
              <th className="px-4 py-2.5">Status</th>
              <th className="px-4 py-2.5"><span className="sr-only">Receipt</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {payments.map((p) => (
              <tr key={p.id}>
                <td className="px-4 py-2.5 whitespace-nowrap">{shortDay(p.createdAt)}</td>
                <td className="px-4 py-2.5 whitespace-nowrap">{p.planName} ({p.interval})</td>
                <td className="px-4 py-2.5 whitespace-nowrap">{p.periodStart ? `${shortDay(p.periodStart)} – ${shortDay(p.periodEnd)}` : '—'}</td>
                <td className="px-4 py-2.5 whitespace-nowrap">{formatMinorAmount(p.amount, p.currency)}</td>
                <td className="px-4 py-2.5">{p.currency}</td>
                <td className="px-4 py-2.5 capitalize">{p.status === 'captured' ? (p.refundedAmount > 0 ? `Paid, ${formatMinorAmount(p.refundedAmount, p.currency)} refunded` : 'Paid') : p.status}</td>
                <td className="px-4 py-2.5 text-right whitespace-nowrap">
                  {p.status !== 'failed' && (
                    <a className="inline-flex items-center gap-1 text-brand-700 hover:underline" href={`/api/billing/receipts/${encodeURIComponent(p.id)}`} target="_blank" rel="noreferrer">
                      <FileText className="size-4" aria-hidden /> Receipt
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="px-5 py-4 text-sm text-slate-500">No payments yet.</p>
      )}
    </TableCard>
  );
}
