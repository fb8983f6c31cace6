import { useQuery } from '@tanstack/react-query';
import { BarChart3, Download } from 'lucide-react';
import { useState } from 'react';
import { isUnlimited } from '../../../server/contracts/plans';
import { PageHeader } from '../../components/layouts/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { formatDate, formatDay } from '../jobs/format';
import { PlanLocked } from '../jobs/plan-locked';
import { PlanLoadFailed } from '../jobs/plan-load-failed';
import { usePlanGate } from '../jobs/use-plan';
import { useTRPC } from '../../lib/trpc';
import { errorMessage } from '../../lib/error-message';

type Source = 'dashboard' | 'api' | 'schedule';
const SOURCE_LABEL: Record<Source, string> = { dashboard: 'Dashboard', api: 'API key', schedule: 'Schedule' };
const COLORS = { valid: 'bg-emerald-500', risky: 'bg-amber-400', invalid: 'bg-red-500' } as const;
const n = (v: number) => v.toLocaleString('en-US');
/** The browser's zone: the report counts its calendar days, as the Overview chart does. */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function Legend() {
  return (
    <div className="flex gap-4 text-xs text-slate-600">
      {(['valid', 'risky', 'invalid'] as const).map((k) => (
        <span key={k} className="inline-flex items-center gap-1.5 capitalize">
          <span className={`size-2.5 rounded-sm ${COLORS[k]}`} aria-hidden /> {k}
        </span>
      ))}
    </div>
  );
}

/** Analytics (Pro and up) and advanced reporting (Business and up: filters and CSV export). */
export function AnalyticsScreen() {
  const trpc = useTRPC();
  const gate = usePlanGate('analytics');
  const advanced = usePlanGate('advancedReporting');
  const [source, setSource] = useState<Source | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters = advanced.allowed ? { source: source || undefined, from: from || undefined, to: to || undefined, timeZone } : { timeZone };
  const report = useQuery({ ...trpc.reporting.analytics.queryOptions(filters), enabled: gate.allowed });

  if (gate.isLoading) return <Spinner />;
  if (gate.isError) {
    return (
      <div className="space-y-6">
        <PageHeader title="Analytics" description="Validations over time, list quality per schedule, credits used and the most common reasons." />
        <PlanLoadFailed onRetry={gate.refetch} />
      </div>
    );
  }
  if (!gate.allowed) {
    return (
      <div className="space-y-6">
        <PageHeader title="Analytics" description="Validations over time, list quality per schedule, credits used and the most common reasons." />
        <PlanLocked title="Analytics are part of the Pro plan" highlights={['Validations over time', 'List quality per schedule', 'Credits vs quota', 'Top reasons', 'Business: filters and CSV export']}>
          Analytics are available on the Pro, Business and Enterprise plans.{gate.planName ? ` You are on the ${gate.planName} plan.` : ''}
        </PlanLocked>
      </div>
    );
  }

  const r = report.data;
  const max = r ? Math.max(1, ...r.daily.map((d) => d.valid + d.invalid + d.risky)) : 1;
  const csvHref = `/api/reports/analytics.csv?${new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string')).toString()}`;
  const reasonMax = r ? Math.max(1, ...r.topReasons.map((x) => x.count)) : 1;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title="Analytics"
        description={r ? `Validations from ${formatDay(r.range.from)} to ${formatDay(r.range.to)}${r.range.source ? `, source: ${SOURCE_LABEL[r.range.source]}` : ''}.` : 'Validations over time, list quality, credits and reasons.'}
        actions={
          advanced.allowed ? (
            <Button href={csvHref} variant="outline" size="sm">
              <Download className="size-4" aria-hidden /> Export CSV
            </Button>
          ) : undefined
        }
      />

      {advanced.allowed ? (
        <Card className="flex flex-wrap items-end gap-4 p-4" data-testid="report-filters">
          <div className="space-y-1">
            <Label htmlFor="report-source">Source</Label>
            <select id="report-source" className="block h-9 rounded-md border border-slate-300 bg-white px-2 text-sm" value={source} onChange={(e) => setSource(e.target.value as Source | '')}>
              <option value="">All sources</option>
              {(Object.keys(SOURCE_LABEL) as Source[]).map((s) => (
                <option key={s} value={s}>{SOURCE_LABEL[s]}</option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <Label htmlFor="report-from">From</Label>
            <Input id="report-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div className="space-y-1">
            <Label htmlFor="report-to">To</Label>
            <Input id="report-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
          {report.isError && <p className="text-sm text-red-700" role="alert">{errorMessage(report.error, 'The report could not be loaded. Please try again.')}</p>}
        </Card>
      ) : (
        <p className="text-sm text-slate-600" data-testid="reporting-upsell">
          Last 30 days, all sources. Filters by source and date and CSV export come with Business.
        </p>
      )}

      {!r ? (
        <Spinner />
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-4">
            {([['Total', r.totals.total], ['Valid', r.totals.valid], ['Risky', r.totals.risky], ['Invalid', r.totals.invalid]] as const).map(([k, v]) => (
              <Card key={k} className="px-5 py-4">
                <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{k}</p>
                <p className="mt-1 text-2xl font-semibold text-slate-900" data-testid={`total-${k.toLowerCase()}`}>{n(v)}</p>
              </Card>
            ))}
          </div>

          <Card className="p-5">
            <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-semibold text-slate-900">Validations over time</h3>
              <Legend />
            </div>
            <div className="flex h-48 items-end gap-px" role="img" aria-label="Daily validations by result">
              {r.daily.map((d) => {
                const total = d.valid + d.invalid + d.risky;
                return (
                  <div key={d.day} className="flex h-full flex-1 flex-col justify-end" title={`${formatDay(d.day)}: ${d.valid} valid, ${d.risky} risky, ${d.invalid} invalid`}>
                    {(['invalid', 'risky', 'valid'] as const).map((k) => (d[k] > 0 ? <div key={k} className={COLORS[k]} style={{ height: `${(d[k] / max) * 100}%` }} /> : null))}
                    {total === 0 && <div className="h-px bg-slate-200" />}
                  </div>
                );
              })}
            </div>
            <div className="mt-1 flex justify-between text-xs text-slate-500">
              <span>{formatDay(r.range.from)}</span>
              <span>{formatDay(r.range.to)}</span>
            </div>
          </Card>

          <div className="grid gap-4 lg:grid-cols-2">
            <Card className="p-5">
              <h3 className="font-semibold text-slate-900">Credits used vs quota</h3>
              <p className="mt-1 text-sm text-slate-600">Since {formatDay(r.credits.periodStart)}</p>
              <p className="mt-3 text-2xl font-semibold text-slate-900" data-testid="credits-used">
                {n(r.credits.used)} <span className="text-base font-normal text-slate-500">of {isUnlimited(r.credits.quota) ? 'unlimited' : n(r.credits.quota)}</span>
              </p>
              {!isUnlimited(r.credits.quota) && (
                <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100">
                  <div className="h-full bg-brand-600" style={{ width: `${Math.min(100, (r.credits.used / Math.max(1, r.credits.quota)) * 100)}%` }} />
                </div>
              )}
              <p className="mt-3 text-sm text-slate-600">Balance: {n(r.credits.balance)} credits</p>
              <h4 className="mt-5 text-sm font-semibold text-slate-900">By source</h4>
              <ul className="mt-2 space-y-1 text-sm text-slate-700">
                {r.bySource.map((s) => (
                  <li key={s.source} className="flex justify-between">
                    <span>{SOURCE_LABEL[s.source]}</span>
                    <span className="font-medium">{n(s.count)}</span>
                  </li>
                ))}
              </ul>
            </Card>
            <Card className="p-5">
              <h3 className="font-semibold text-slate-900">Top reasons (invalid and risky)</h3>
              {r.topReasons.length === 0 ? (
                <p className="mt-3 text-sm text-slate-500">No invalid or risky addresses in this period.</p>
              ) : (
                <ul className="mt-3 space-y-2 text-sm" data-testid="top-reasons">
                  {r.topReasons.map((x) => (
                    <li key={x.reason}>
                      <div className="flex justify-between text-slate-700">
                        <span className="truncate">{x.reason}</span>
                        <span className="font-medium">{n(x.count)}</span>
                      </div>
                      <div className="mt-1 h-1.5 rounded-full bg-slate-100">
                        <div className="h-full rounded-full bg-red-400" style={{ width: `${(x.count / reasonMax) * 100}%` }} />
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>

          <Card className="p-5">
            <h3 className="flex items-center gap-2 font-semibold text-slate-900">
              <BarChart3 className="size-4 text-brand-600" aria-hidden /> List quality per schedule
            </h3>
            {r.schedules.length === 0 ? (
              <p className="mt-3 text-sm text-slate-500">No completed schedule runs in this period.</p>
            ) : (
              <div className="mt-3 space-y-4" data-testid="schedule-quality">
                {r.schedules.map((s) => (
                  <div key={s.scheduleId}>
                    <p className="text-sm font-medium text-slate-800">{s.name}</p>
                    <table className="mt-1 min-w-full text-sm">
                      <thead className="text-left text-xs text-slate-500">
                        <tr>
                          <th className="py-1 pr-4">Run</th>
                          <th className="py-1 pr-4">Valid %</th>
                          <th className="py-1 pr-4">Valid</th>
                          <th className="py-1 pr-4">Risky</th>
                          <th className="py-1 pr-4">Invalid</th>
                        </tr>
                      </thead>
                      <tbody>
                        {s.runs.map((run) => (
                          <tr key={run.jobId} className="border-t border-slate-100">
                            <td className="py-1 pr-4">{formatDate(run.at)}</td>
                            <td className="py-1 pr-4">{run.validPercent === null ? '—' : `${run.validPercent}%`}</td>
                            <td className="py-1 pr-4">{n(run.valid)}</td>
                            <td className="py-1 pr-4">{n(run.risky)}</td>
                            <td className="py-1 pr-4">{n(run.invalid)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                ))}
              </div>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
