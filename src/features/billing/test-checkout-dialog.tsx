import { FlaskConical } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { formatMinor } from './messages';

export interface TestOrder {
  orderId: string;
  amount: number;
  currency: string;
  planName: string;
  description: string;
  /** A subscription that starts later (a cancelled plan resumed): what happens instead of a charge now. */
  note?: string | null;
}

/**
 * The checkout used when the server has no Razorpay keys: clearly labelled, no card form. Paying
 * asks the server for a test payment id and signature, then goes through the normal verification.
 * One order is paid once: the busy state comes a render after the click, so a double-click's second
 * click went through and the test server took a second payment (two Paid rows, two toasts).
 */
export function TestCheckoutDialog({ order, busy, onPay, onClose }: { order: TestOrder | null; busy: boolean; onPay: () => void; onClose: () => void }) {
  const price = order ? formatMinor(order.amount, order.currency) : '';
  const paid = useRef<TestOrder | null>(null);
  const pay = () => {
    if (!order || paid.current === order) return;
    paid.current = order;
    onPay();
  };
  return (
    <Dialog open={order !== null} onClose={busy ? () => undefined : onClose} title="Mailvet checkout" size="md">
      {order && (
        <div className="space-y-5" data-testid="test-checkout">
          <div role="note" className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            <FlaskConical className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden />
            <div>
              <p className="font-semibold">Test mode — no real payment</p>
              <p className="mt-0.5 text-amber-800">
                Razorpay is not configured on this server. This checkout simulates a successful payment; the server signs it with its own test secret
                and verifies it exactly like a Razorpay payment.
              </p>
            </div>
          </div>
          <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
            <div className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-slate-500">Plan</dt>
              <dd className="font-medium text-slate-900">{order.description}</dd>
            </div>
            <div className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-slate-500">{order.note ? 'Each period' : 'Amount'}</dt>
              <dd className="font-medium text-slate-900">{price}</dd>
            </div>
            <div className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-slate-500">Order</dt>
              <dd className="truncate font-mono text-xs text-slate-600">{order.orderId}</dd>
            </div>
          </dl>
          {order.note && <p className="text-sm text-slate-700">{order.note}</p>}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={busy}>Cancel</Button>
            <Button onClick={pay} loading={busy}>{order.note ? 'Confirm card (test)' : `Pay ${price} (test)`}</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
