import { AlertTriangle, CreditCard, FlaskConical, Info } from 'lucide-react';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/app-router';
import { BILLING_TEXT } from './messages';
import { day } from './plan-card-action';

type Outputs = inferRouterOutputs<AppRouter>['billing'];

/** Billing's alerts about the subscription's state: a renewal left unpaid, a suspended account. */
export function BillingStateNotices({ overview }: { overview: Outputs['overview'] | undefined }) {
  return (
    <>
      {overview?.status === 'past_due' && (
        <p role="alert" className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="past-due-banner">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
          {overview.halted
            ? BILLING_TEXT.haltedPastDue(day(overview.graceEndsAt))
            : `Your last payment failed. Your plan keeps working until ${day(overview.graceEndsAt)}; Razorpay retries the charge — make sure your card can be charged, or pay now on your plan’s card below, to avoid a suspension.`}
        </p>
      )}
      {overview?.status === 'suspended' && (
        <p role="alert" className="flex gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900" data-testid="suspended-banner">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-red-600" aria-hidden />
          {overview.paused
            ? BILLING_TEXT.pausedSuspended
            : 'Your account is suspended because the subscription payment failed. Your data is still here to view and export; paying now on your plan’s card below restores validations at once.'}
        </p>
      )}
    </>
  );
}

/** How payments work on this server (test mode, none at all) and who may pay (the owner only). */
export function PaymentModeNotes({ mode, notOwner }: { mode: Outputs['config']['mode'] | undefined; notOwner: boolean }) {
  const paymentsOff = mode === 'unavailable';
  return (
    <>
      {(mode === 'test' || paymentsOff || notOwner) && (
        <div className="space-y-3">
          {mode === 'test' && (
            <p role="note" className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              <FlaskConical className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
              Payments are in test mode on this server (no Razorpay keys): upgrading opens a test checkout and no money is taken.
            </p>
          )}
          {paymentsOff && (
            <p role="note" className="flex gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
              <CreditCard className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
              Online payments are not available right now. Please contact support to change your plan.
            </p>
          )}
          {notOwner && (
            <p role="note" className="flex gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
              <Info className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
              {BILLING_TEXT.ownerOnly} Ask the owner of this account to upgrade.
            </p>
          )}
        </div>
      )}
    </>
  );
}
