import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { creditsLabel, isUnlimited, planAllows } from '../../../../server/contracts/plans';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useTRPC } from '../../../lib/trpc';

/** Credits left, and on the Free plan an honest note that the mailbox itself is not checked. */
export function PlanNote() {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions());
  if (!me.data) return null;
  const smtp = planAllows(me.data.plan, 'smtpCheck');
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-5 py-4 shadow-sm">
      <div className="flex items-start gap-3">
        <Info className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
        <p className="text-sm text-slate-700">
          <span className="font-medium text-slate-900" data-testid="credits-left">
            {isUnlimited(me.data.monthly_validations_quota)
              ? 'Unlimited credits.'
              : `${creditsLabel(me.data.credits_balance, me.data.monthly_validations_quota)} ${me.data.credits_balance === 1 ? 'credit' : 'credits'} left.`}
          </span>{' '}
          {smtp
            ? 'Checks cover syntax, DNS, MX records and the mailbox itself (SMTP), plus disposable and role detection.'
            : 'Free plan: checks cover syntax, DNS and MX records. The mailbox itself (SMTP) is not checked.'}
        </p>
      </div>
      {!smtp && (
        <Button to={paths.dashboard.billing} variant="outline" size="sm">
          Upgrade for SMTP checks
        </Button>
      )}
    </div>
  );
}
