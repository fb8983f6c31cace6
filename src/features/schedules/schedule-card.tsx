import { Switch } from '@headlessui/react';
import { Activity, AlertTriangle, CalendarClock, Mail, Repeat, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { formatCount, formatDate } from '../jobs/format';
import { FREQUENCIES, SCHEDULE_TEXT } from './messages';
import type { ScheduleItem } from './types';

export interface ScheduleCardProps {
  schedule: ScheduleItem;
  onToggle: (schedule: ScheduleItem, active: boolean) => void;
  onDelete: (schedule: ScheduleItem) => void;
  toggling: boolean;
  deleting: boolean;
}

function Meta({ icon: Icon, label, value, testId }: { icon: typeof Mail; label: string; value: string; testId: string }) {
  return (
    <div className="flex min-w-0 items-center gap-2.5">
      <span className="grid size-8 shrink-0 place-items-center rounded-md bg-slate-100 text-slate-500">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0">
        <dt className="text-xs text-slate-500">{label}</dt>
        <dd className="truncate text-sm font-medium text-slate-900" data-testid={testId}>{value}</dd>
      </div>
    </div>
  );
}

const PREVIEW = 5;

/** One schedule: name, Active/Inactive, description, frequency, emails, runs, last run; toggle and delete. */
export function ScheduleCard({ schedule: s, onToggle, onDelete, toggling, deleting }: ScheduleCardProps) {
  const [showAll, setShowAll] = useState(false);
  const frequency = FREQUENCIES.find((f) => f.value === s.frequency)?.label ?? s.frequency;
  const changed = s.changes?.newlyInvalid ?? [];
  const shown = showAll ? changed : changed.slice(0, PREVIEW);
  return (
    <Card className={cn('flex flex-col transition-opacity', !s.is_active && 'bg-slate-50/60')} data-testid="schedule-card" data-schedule-id={s.id}>
      <div className="flex items-start gap-4 p-5 pb-4">
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate text-base font-semibold text-slate-900" data-testid="schedule-name">{s.name}</h3>
            <Badge variant={s.is_active ? 'success' : 'neutral'} data-testid="schedule-status">
              <span className={cn('size-1.5 rounded-full', s.is_active ? 'bg-emerald-500' : 'bg-slate-400')} aria-hidden />
              {s.is_active ? 'Active' : 'Inactive'}
            </Badge>
          </div>
          {s.description ? <p className="line-clamp-2 text-sm text-slate-600">{s.description}</p> : <p className="text-sm text-slate-400 italic">No description</p>}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <Switch
            checked={s.is_active}
            onChange={(v) => onToggle(s, v)}
            disabled={toggling}
            aria-label={`${s.is_active ? 'Deactivate' : 'Activate'} ${s.name}`}
            className="group relative inline-flex h-6 w-11 cursor-pointer items-center rounded-full bg-slate-300 transition-colors data-checked:bg-brand-600 data-disabled:cursor-wait data-disabled:opacity-60"
          >
            <span className="size-5 translate-x-0.5 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform group-data-checked:translate-x-[1.375rem]" />
          </Switch>
          <Button variant="ghost" size="icon" onClick={() => onDelete(s)} loading={deleting} aria-label={`Delete ${s.name}`} className="text-slate-500 hover:bg-red-50 hover:text-red-600">
            {!deleting && <Trash2 className="size-4" aria-hidden />}
          </Button>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 border-t border-slate-100 px-5 py-4 sm:grid-cols-4">
        <Meta icon={Repeat} label="Frequency" value={frequency} testId="schedule-frequency" />
        <Meta icon={Mail} label="Emails" value={formatCount(s.email_count)} testId="schedule-emails" />
        <Meta icon={Activity} label="Total runs" value={formatCount(s.total_runs)} testId="schedule-runs" />
        <Meta icon={CalendarClock} label="Last run" value={s.last_run_at ? formatDate(s.last_run_at) : SCHEDULE_TEXT.never} testId="schedule-last-run" />
      </dl>
      {s.changes && s.last_run_at && (
        <div className="mt-auto border-t border-slate-100 px-5 py-3.5" data-testid="schedule-changes">
          {changed.length === 0 ? (
            <p className="text-sm text-slate-600">No addresses turned invalid since the previous run.</p>
          ) : (
            <div className="space-y-2">
              <p className="flex items-center gap-1.5 text-sm font-medium text-amber-800">
                <AlertTriangle className="size-4" aria-hidden />
                {changed.length} address{changed.length === 1 ? '' : 'es'} turned invalid since the previous run
              </p>
              <ul className="flex flex-wrap gap-1.5">
                {shown.map((e) => (
                  <li key={e} className="rounded-md bg-red-50 px-2 py-0.5 font-mono text-xs text-red-700 ring-1 ring-red-600/10 ring-inset">{e}</li>
                ))}
              </ul>
              {changed.length > PREVIEW && (
                <button type="button" className="cursor-pointer text-xs font-medium text-brand-700 hover:underline" onClick={() => setShowAll((v) => !v)}>
                  {showAll ? 'Show fewer' : `Show all ${changed.length}`}
                </button>
              )}
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
