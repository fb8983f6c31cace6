import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useTRPC } from '../../lib/trpc';
import { BILLING_TEXT } from './messages';

/** The grace end's UTC day, labelled as the mails and the Billing page write it: this banner has no note saying billing dates are UTC. */
const day = (iso: string | null) => (iso ? `${new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })} (UTC)` : '');

/** Dashboard-wide notice while a renewal is unpaid (past_due, with the grace end) or the account is suspended. */
export function BillingStateBanner() {
  const trpc = useTRPC();
  const overview = useQuery({ ...trpc.billing.overview.queryOptions(), staleTime: 60_000 });
  const ov = overview.data;
  if (!ov || (ov.status !== 'past_due' && ov.status !== 'suspended')) return null;
  const suspended = ov.status === 'suspended';
  return (
    <div
      role="alert"
      data-testid="billing-state-banner"
      className={suspended ? 'mb-6 flex gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900' : 'mb-6 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900'}
    >
      <AlertTriangle className={suspended ? 'mt-0.5 size-4 shrink-0 text-red-600' : 'mt-0.5 size-4 shrink-0 text-amber-600'} aria-hidden />
      <p>
        {suspended && ov.paused
          ? BILLING_TEXT.pausedBanner
          : suspended
          ? 'Your account is suspended because the subscription payment failed. Validations, uploads, the API and schedules are paused; your data is still here to view and export.'
          : `Your last payment failed. Everything keeps working until ${day(ov.graceEndsAt)}; after that the account is suspended until it is paid.`}{' '}
        <Link to={paths.dashboard.billing} className="font-medium underline">
          Go to Billing
        </Link>
      </p>
    </div>
  );
}
