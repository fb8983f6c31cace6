import { CheckCircle2, Circle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/cn';
import { OVERVIEW_TEXT } from '../messages';
import type { Overview } from '../types';

interface Step {
  label: string;
  done: boolean;
  to?: string;
  hint: string;
}

/**
 * `canCreateKeys`: false for a member, who cannot create the account's API keys (permissions.ts apiKeys.manage).
 * `loading`: the account's progress is on its way; the card says so instead of a guessed '1 of 3 done'.
 */
export function GettingStarted({ state, canCreateKeys = true, loading = false }: { state: Overview['getting_started'] | undefined; canCreateKeys?: boolean; loading?: boolean }) {
  const keyDone = state?.api_key_created ?? false;
  const steps: Step[] = [
    // Not "500 free validations": an account opened after a deleted one, or joined as a member, has other credits.
    { label: 'Account created', done: true, hint: 'Your account is ready to use.' },
    { label: 'Validate your first email', done: state?.first_validation ?? false, to: paths.dashboard.validate, hint: 'Check one address in real time.' },
    canCreateKeys || keyDone
      ? { label: 'Generate an API key', done: keyDone, to: paths.dashboard.apiKeys, hint: 'Validate from your own code.' }
      : { label: 'Generate an API key', done: false, hint: 'An owner or admin of this account creates API keys.' },
  ];
  const done = steps.filter((s) => s.done).length;
  if (loading && !state) {
    return (
      <Card data-testid="getting-started">
        <CardHeader>
          <CardTitle>{OVERVIEW_TEXT.gettingStarted}</CardTitle>
        </CardHeader>
        <CardContent>
          <p role="status" className="flex items-center gap-2 py-4 text-sm text-slate-600">
            <Spinner size="sm" label="" /> Loading your progress…
          </p>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card data-testid="getting-started">
      <CardHeader>
        <CardTitle>{OVERVIEW_TEXT.gettingStarted}</CardTitle>
        <CardDescription>
          {done} of {steps.length} done
        </CardDescription>
        <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden>
          <div className="h-full rounded-full bg-emerald-500 transition-[width]" style={{ width: `${(done / steps.length) * 100}%` }} />
        </div>
      </CardHeader>
      <CardContent>
        <ol className="space-y-1" aria-label="Getting started checklist">
          {steps.map((s) => {
            const Icon = s.done ? CheckCircle2 : Circle;
            const body = (
              <>
                <Icon className={cn('mt-0.5 size-5 shrink-0', s.done ? 'text-emerald-600' : 'text-slate-300')} aria-hidden />
                <span className="min-w-0">
                  <span className={cn('block text-sm font-medium', s.done ? 'text-slate-500 line-through decoration-slate-300' : 'text-slate-900')}>{s.label}</span>
                  <span className="block text-xs text-slate-500">{s.hint}</span>
                </span>
                <span className="sr-only">{s.done ? '(done)' : '(to do)'}</span>
              </>
            );
            return (
              <li key={s.label} data-testid="checklist-item" data-done={s.done}>
                {s.to && !s.done ? (
                  <Link to={s.to} className="-mx-2 flex gap-3 rounded-lg px-2 py-2 hover:bg-slate-50">
                    {body}
                  </Link>
                ) : (
                  <div className="-mx-2 flex gap-3 px-2 py-2">{body}</div>
                )}
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
