import { AlertTriangle, CheckCircle2, Info, Lightbulb, MinusCircle, Server, ShieldAlert, Sparkles, UserRound, XCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../jobs/format';
import { RESULT_LABEL } from '../messages';
import type { SingleCheckResult } from '../types';
import { explainResult, replyCode } from '../utils/explain-result';
import { formatDomainAge } from '../utils/format';
import { ScoreRing } from './score-ring';

const BADGE: Record<SingleCheckResult['result'], BadgeVariant> = { valid: 'success', invalid: 'danger', risky: 'warning' };

type CheckState = 'pass' | 'fail' | 'skipped';

/** How a check tile shows each state: its icon, its words, the tile's and the icon's colours. */
const CHECK_LOOK: Record<CheckState, { icon: LucideIcon; text: string; tile: string; iconColor: string }> = {
  pass: { icon: CheckCircle2, text: 'Passed', tile: 'border-emerald-200 bg-emerald-50/60', iconColor: 'text-emerald-600' },
  fail: { icon: XCircle, text: 'Failed', tile: 'border-red-200 bg-red-50/60', iconColor: 'text-red-600' },
  skipped: { icon: MinusCircle, text: 'Not checked', tile: 'border-slate-200 bg-slate-50', iconColor: 'text-slate-400' },
};

function CheckTile({ label, state, note }: { label: string; state: CheckState; note?: string }) {
  const look = CHECK_LOOK[state];
  const Icon = look.icon;
  return (
    <li
      className={cn('flex items-center gap-3 rounded-lg border px-3 py-2.5', look.tile)}
      data-testid={`check-${label.toLowerCase().replace(/\s+/g, '-')}`}
      data-state={state}
    >
      <Icon className={cn('size-5 shrink-0', look.iconColor)} aria-hidden />
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">{label}</p>
        <p className="text-xs text-slate-600">{note ?? look.text}</p>
      </div>
    </li>
  );
}

const NOTICE_TONE = {
  amber: 'border-amber-200 bg-amber-50 text-amber-900',
  red: 'border-red-200 bg-red-50 text-red-900',
  slate: 'border-slate-200 bg-slate-50 text-slate-700',
  brand: 'border-brand-100 bg-brand-50 text-brand-700',
} as const;

function Notice({ tone, icon, title, children }: { tone: keyof typeof NOTICE_TONE; icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className={cn('flex gap-3 rounded-lg border p-3 text-sm', NOTICE_TONE[tone])}>
      <span className="mt-0.5 shrink-0" aria-hidden>
        {icon}
      </span>
      <div>
        <p className="font-medium">{title}</p>
        <div className="mt-0.5 opacity-90">{children}</div>
      </div>
    </div>
  );
}

export function ResultCard({ result: r, onUseSuggestion }: { result: SingleCheckResult; onUseSuggestion: (email: string) => void }) {
  const smtpChecked = r.depth === 'smtp' && r.is_mx_valid;
  const smtpState: CheckState = !smtpChecked ? 'skipped' : r.is_smtp_valid ? 'pass' : 'fail';
  const smtpNote = r.depth !== 'smtp' ? 'Not checked on your plan' : !r.is_mx_valid ? 'Not reached' : undefined;
  const explanation = explainResult(r);
  const checkedAt = new Date(r.checked_at);

  return (
    <Card className="overflow-hidden" aria-labelledby="result-heading" data-testid="validation-result">
      <div className="flex flex-wrap items-center gap-5 border-b border-slate-100 p-6">
        <ScoreRing score={r.deliverability_score} />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Result</p>
          <h3 id="result-heading" className="mt-1 font-mono text-lg font-semibold break-all text-slate-900">
            {r.email}
          </h3>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <Badge variant={BADGE[r.result]} className="px-3 text-sm" data-testid="result-badge">
              {RESULT_LABEL[r.result]}
            </Badge>
            <span className="text-sm text-slate-600">Deliverability score {r.deliverability_score}%</span>
          </div>
        </div>
      </div>

      <div className="space-y-6 p-6">
        <p className="flex gap-2.5 text-sm leading-relaxed text-slate-700" data-testid="result-explanation">
          <Info className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
          <span>{explanation}</span>
        </p>

        {r.suggestion && r.suggestion !== r.email && (
          <Notice tone="brand" icon={<Lightbulb className="size-4" />} title="Possible typo">
            Did you mean{' '}
            <button
              type="button"
              className="cursor-pointer font-mono font-semibold underline decoration-brand-300 underline-offset-2 hover:decoration-brand-600"
              onClick={() => onUseSuggestion(r.suggestion!)}
            >
              {r.suggestion}
            </button>
            ?
          </Notice>
        )}

        <section aria-labelledby="checks-heading">
          <h4 id="checks-heading" className="mb-3 text-sm font-semibold text-slate-900">
            Checks
          </h4>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <CheckTile label="Syntax" state={r.is_syntax_valid ? 'pass' : 'fail'} />
            <CheckTile label="DNS" state={!r.is_syntax_valid ? 'skipped' : r.is_dns_valid ? 'pass' : 'fail'} />
            <CheckTile label="MX Records" state={!r.is_dns_valid ? 'skipped' : r.is_mx_valid ? 'pass' : 'fail'} />
            <CheckTile label="SMTP" state={smtpState} note={smtpNote} />
          </ul>
        </section>

        {(r.role_detected || r.disposable_provider || r.catch_all || r.free_provider) && (
          <section aria-label="Warnings" className="grid gap-3 md:grid-cols-2">
            {r.role_detected && (
              <Notice tone="amber" icon={<UserRound className="size-4" />} title="Role-based address">
                Addresses like info@, admin@ or support@ usually reach a shared inbox or a team, not one person. They tend to engage less and complain more.
              </Notice>
            )}
            {r.disposable_provider && (
              <Notice tone="red" icon={<ShieldAlert className="size-4" />} title="Disposable email provider">
                This domain gives out temporary inboxes that expire within hours or days. Do not rely on it for anything you need delivered later.
              </Notice>
            )}
            {r.catch_all && (
              <Notice tone="amber" icon={<AlertTriangle className="size-4" />} title="Catch-all domain">
                The domain accepts mail for any address, so a bounce may only show up after sending.
              </Notice>
            )}
            {r.free_provider && (
              <Notice tone="slate" icon={<Sparkles className="size-4" />} title="Free email provider">
                A personal mailbox from a free provider rather than a company domain.
              </Notice>
            )}
          </section>
        )}

        <dl className="grid gap-4 sm:grid-cols-3">
          <div className="rounded-lg border border-slate-200 p-4 sm:col-span-2">
            <dt className="flex items-center gap-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
              <Server className="size-3.5" aria-hidden /> MX Hosts
            </dt>
            <dd className="mt-2">
              {r.mx_hosts.length > 0 ? (
                <ul className="space-y-1" aria-label="MX hosts">
                  {r.mx_hosts.map((h, i) => (
                    <li key={`${h}-${i}`} className="flex items-center gap-2 font-mono text-sm text-slate-800">
                      <span className="grid size-5 place-items-center rounded bg-slate-100 text-[10px] font-semibold text-slate-500">{i + 1}</span>
                      {h}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-500">No mail servers found</p>
              )}
            </dd>
          </div>
          <div className="rounded-lg border border-slate-200 p-4">
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Domain Age</dt>
            <dd className="mt-2 text-lg font-semibold text-slate-900" data-testid="domain-age">
              {formatDomainAge(r.domain_age_days)}
            </dd>
            <dd className="mt-1 text-xs text-slate-500">Checked {formatDateTime(checkedAt)}</dd>
          </div>
        </dl>

        {r.depth !== 'smtp' && (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-brand-100 bg-brand-50/70 p-4" data-testid="smtp-not-checked">
            <p className="text-sm text-brand-900">
              <span className="font-medium">The mailbox (SMTP) was not checked.</span> The Free plan checks syntax, DNS and MX records only. Paid plans also ask
              the mail server whether this exact mailbox exists.
            </p>
            <Button to={paths.dashboard.billing} size="sm">
              Upgrade
            </Button>
          </div>
        )}

        {r.evidence.replies.length > 0 && (
          <details className="group rounded-lg border border-slate-200 text-sm">
            <summary className="cursor-pointer list-none px-4 py-3 font-medium text-slate-700 select-none hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
              <span className="inline-block transition-transform group-open:rotate-90" aria-hidden>
                ›
              </span>{' '}
              Technical details: what the mail server said
            </summary>
            <div className="border-t border-slate-100 px-4 py-3">
              <p className="mb-2 text-xs text-slate-500">
                Asked {r.evidence.mx_host ?? 'the mail server'}
                {r.evidence.mx_ip ? ` (${r.evidence.mx_ip})` : ''}
                {r.evidence.retries > 0 ? `, after ${r.evidence.retries} ${r.evidence.retries === 1 ? 'retry' : 'retries'}` : ''}.
              </p>
              <ol className="space-y-1 font-mono text-xs text-slate-700">
                {r.evidence.replies.map((reply, i) => (
                  <li key={i} className="break-all">
                    <span className="text-slate-400">{reply.stage.toUpperCase()}</span> {replyCode(reply)} {reply.text}
                  </li>
                ))}
              </ol>
            </div>
          </details>
        )}
      </div>
    </Card>
  );
}
