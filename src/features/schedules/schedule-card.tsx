import { Switch } from '@headlessui/react';
import { Activity, AlertTriangle, CalendarClock, CheckCircle2, Loader2, Mail, Repeat, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../config/paths';
import { cn } from '../../lib/cn';
import { formatCount, formatDate, formatDateTime } from '../jobs/format';
import { useScheduleChanges } from './api';
import { FREQUENCIES, SCHEDULE_TEXT } from './messages';
import type { ScheduleItem } from './types';

export interface ScheduleCardProps {
  schedule: ScheduleItem;
  onToggle: (schedule: ScheduleItem, active: boolean) => void;
  onDelete: (schedule: ScheduleItem) => void;
  toggling: boolean;
  deleting: boolean;
  /** Owner and admin (permissions.ts: schedules.manage); members see the schedule without controls. */
  canManage?: boolean;
}

function Meta({ icon: Icon, label, value, testId }: { icon: typeof Mail; label: string; value: string; testId: string }) {
  return (
    <div className="space-y-0.5">
      <dt className="flex items-center gap-1.5 text-xs whitespace-nowrap text-slate-500">
        <Icon className="size-3.5 shrink-0 text-slate-400" aria-hidden /> {label}
      </dt>
      <dd className="text-sm font-semibold whitespace-nowrap text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** One schedule: name, Active/Inactive, description, frequency, emails, runs, last run; toggle and delete. */
export function ScheduleCard({ schedule: s, onToggle, onDelete, toggling, deleting, canManage = true }: ScheduleCardProps) {
  const frequency = FREQUENCIES.find((f) => f.value === s.frequency)?.label ?? s.frequency;
  const running = s.last_job !== null && (s.last_job.status === 'pending' || s.last_job.status === 'processing');
  return (
    <Card className={cn('flex min-w-0 flex-col', !s.is_active && 'bg-slate-50/70')} data-testid="schedule-card" data-schedule-id={s.id}>
      <div className="flex items-start gap-4 p-5 pb-4">
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            {/* The user's own text: wrapped (a long name or an unbroken token), never wider than the card. */}
            <h3 className="min-w-0 text-base font-semibold [overflow-wrap:anywhere] text-slate-900" data-testid="schedule-name">{s.name}</h3>
            <Badge variant={s.is_active ? 'success' : 'neutral'} data-testid="schedule-status">
              <span className={cn('size-1.5 rounded-full', s.is_active ? 'bg-emerald-500' : 'bg-slate-400')} aria-hidden />
              {s.is_active ? 'Active' : 'Inactive'}
            </Badge>
            {running && (
              <Badge variant="brand">
                <Loader2 className="size-3 animate-spin" aria-hidden /> Running
              </Badge>
            )}
          </div>
          {s.description ? (
            <p className="line-clamp-2 text-sm [overflow-wrap:anywhere] text-slate-600" data-testid="schedule-description">{s.description}</p>
          ) : (
            <p className="text-sm text-slate-400">No description</p>
          )}
        </div>
        {canManage && (
          <div className="flex shrink-0 items-center gap-1">
            <Switch
              checked={s.is_active}
              onChange={(v) => onToggle(s, v)}
              disabled={toggling}
              aria-label={`Active: ${s.name}`}
              className="group relative inline-flex h-6 w-11 cursor-pointer items-center rounded-full bg-slate-300 transition-colors data-checked:bg-brand-600 data-disabled:cursor-wait data-disabled:opacity-60"
            >
              <span className="size-5 translate-x-0.5 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform group-data-checked:translate-x-[1.375rem]" />
            </Switch>
            <Button variant="ghost" size="icon" onClick={() => onDelete(s)} loading={deleting} aria-label={`Delete ${s.name}`} className="text-slate-500 hover:bg-red-50 hover:text-red-600">
              {!deleting && <Trash2 className="size-4" aria-hidden />}
            </Button>
          </div>
        )}
      </div>
      <dl className="flex flex-wrap gap-x-8 gap-y-3 border-t border-slate-100 px-5 py-4">
        <Meta icon={Repeat} label="Frequency" value={frequency} testId="schedule-frequency" />
        <Meta icon={Mail} label="Emails" value={formatCount(s.email_count)} testId="schedule-emails" />
        <Meta icon={Activity} label="Total runs" value={formatCount(s.total_runs)} testId="schedule-runs" />
        <Meta icon={CalendarClock} label="Last run" value={s.last_run_at ? formatDate(s.last_run_at) : SCHEDULE_TEXT.never} testId="schedule-last-run" />
      </dl>
      {s.last_job?.status === 'failed' && (
        // A run refused (too few credits, a suspension) or stopped still counts as a run: without this the card read as revalidating.
        <p className="flex items-start gap-2 border-t border-red-100 bg-red-50 px-5 py-2.5 text-xs text-red-800" data-testid="schedule-last-run-failed">
          <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden />
          <span>
            <span className="font-semibold">The last run failed:</span> {s.last_job.error ?? 'see History for the reason.'}
          </span>
        </p>
      )}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 bg-slate-50/60 px-5 py-2.5 text-xs text-slate-500">
        <span>
          {s.is_active && s.next_run_at ? (
            <>Next run {new Date(s.next_run_at) <= new Date() ? 'due now' : formatDateTime(s.next_run_at)}</>
          ) : s.is_active ? (
            'No runs on your current plan'
          ) : s.paused_reason === 'creator_left' ? (
            <span data-testid="schedule-paused-reason">{SCHEDULE_TEXT.pausedCreatorLeft}</span>
          ) : (
            SCHEDULE_TEXT.pausedInactive
          )}
        </span>
        {s.last_job && (
          <Link to={paths.dashboard.history} className="font-medium text-brand-700 hover:underline">
            Last run in History
          </Link>
        )}
      </div>
      {s.total_runs >= 2 && <ChangesPanel scheduleId={s.id} />}
    </Card>
  );
}

const PREVIEW = 5;

/** Spec issue item 5: what changed since the last run (addresses that turned invalid). */
function ChangesPanel({ scheduleId }: { scheduleId: string }) {
  const changes = useScheduleChanges(scheduleId, true);
  const [showAll, setShowAll] = useState(false);
  if (!changes.data || !changes.data.previousRun) return null;
  const invalid = changes.data.newlyInvalid;
  const recovered = changes.data.recovered;
  const shown = showAll ? invalid : invalid.slice(0, PREVIEW);
  return (
    <div className="border-t border-slate-100 px-5 py-3.5" data-testid="schedule-changes">
      {invalid.length === 0 ? (
        <p className="flex items-center gap-1.5 text-sm text-emerald-700">
          <CheckCircle2 className="size-4" aria-hidden /> No addresses turned invalid since the previous run
          {recovered.length > 0 && <span className="text-slate-500">· {recovered.length} recovered</span>}
        </p>
      ) : (
        <div className="space-y-2">
          <p className="flex flex-wrap items-center gap-1.5 text-sm font-medium text-amber-800">
            <AlertTriangle className="size-4" aria-hidden />
            {invalid.length} address{invalid.length === 1 ? '' : 'es'} turned invalid since the previous run
            {recovered.length > 0 && <span className="font-normal text-slate-500">· {recovered.length} recovered</span>}
          </p>
          <ul className="flex flex-wrap gap-1.5">
            {shown.map((c) => (
              <li key={c.email} title={`Was ${c.previous}; now invalid (${c.reason.replaceAll('_', ' ')})`} className="rounded-md bg-red-50 px-2 py-0.5 font-mono text-xs text-red-700 ring-1 ring-red-600/10 ring-inset">
                {c.email}
              </li>
            ))}
          </ul>
          {invalid.length > PREVIEW && (
            <button type="button" className="cursor-pointer text-xs font-medium text-brand-700 hover:underline" onClick={() => setShowAll((v) => !v)}>
              {showAll ? 'Show fewer' : `Show all ${invalid.length}`}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
