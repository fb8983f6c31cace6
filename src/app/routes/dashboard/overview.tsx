import { useQuery } from '@tanstack/react-query';
import { ArrowRight, CalendarDays, Crown, Wallet, Zap } from 'lucide-react';
import { PageHeader } from '../../../components/layouts/page-header';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { GettingStarted } from '../../../features/account/components/getting-started';
import { RecentActivity } from '../../../features/account/components/recent-activity';
import { StatCard } from '../../../features/account/components/stat-card';
import { UsageChart } from '../../../features/account/components/usage-chart';
import { OVERVIEW_TEXT } from '../../../features/account/messages';
import { authClient } from '../../../lib/auth-client';
import { useTRPC } from '../../../lib/trpc';
import { creditsLabel } from '../../../../server/contracts/plans';
import { can } from '../../../../server/contracts/permissions';

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const n = (v: number) => v.toLocaleString('en-US');

export default function OverviewRoute() {
  const trpc = useTRPC();
  const { data: session } = authClient.useSession();
  // Spec section 8: a failure to load the account on the overview is silent (no toast).
  const { data: o, isPending, isError, refetch } = useQuery(trpc.account.overview.queryOptions({ timeZone }));
  const me = useQuery(trpc.account.me.queryOptions()).data;
  const firstName = session?.user.name?.trim().split(/\s+/)[0];

  // Spec: the plan's quota per month. Free's 500 are granted once (when the address is verified),
  // never again next month: saying '/ month' there promised credits that never come.
  const quota = o ? (o.quota_unlimited ? 'Unlimited' : o.plan === 'free' ? `${n(o.monthly_validations_quota)} validations, one-time` : `${n(o.monthly_validations_quota)} / month`) : '—';
  const percent = o ? Math.min(o.usage_percent, 100) : 0;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={firstName ? `Welcome back, ${firstName}` : 'Overview'}
        description="Your credits, plan and recent activity at a glance."
        actions={
          <Button to={paths.dashboard.analytics} variant="outline" size="sm">
            View analytics
          </Button>
        }
      />

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard title={OVERVIEW_TEXT.credits} icon={Wallet} value={o ? creditsLabel(o.credits_balance, o.monthly_validations_quota) : '—'} hint="Available validation credits" testId="stat-credits" />
        <StatCard title={OVERVIEW_TEXT.plan} icon={Crown} value={o?.plan_name ?? '—'} hint={quota} testId="stat-plan" />
        <StatCard
          title={OVERVIEW_TEXT.month}
          icon={CalendarDays}
          value={o ? n(o.monthly_validations_used) : '—'}
          hint={o ? (o.quota_unlimited ? 'validations used' : `${o.usage_percent.toFixed(1)}% of quota used`) : undefined}
          testId="stat-month"
        >
          {o && !o.quota_unlimited && (
            <div
              className="mt-3 h-1.5 overflow-hidden rounded-full bg-slate-100"
              role="progressbar"
              aria-label="Monthly quota used"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Number(o.usage_percent.toFixed(1))}
            >
              <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
            </div>
          )}
        </StatCard>
        <StatCard title={OVERVIEW_TEXT.quickAction} icon={Zap} hint="Check one address in real time.">
          <Button to={paths.dashboard.validate} className="mt-3 w-full">
            Validate Email <ArrowRight className="size-4" aria-hidden />
          </Button>
        </StatCard>
      </div>

      <UsageChart days={o?.validations_per_day} />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <RecentActivity items={o?.recent_activity} loading={isPending} onRetry={isError && !o ? () => void refetch() : undefined} />
        <GettingStarted state={o?.getting_started} loading={isPending} canCreateKeys={!me || can(me.role, 'apiKeys.manage')} />
      </div>
    </div>
  );
}
