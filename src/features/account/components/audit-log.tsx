// Settings → Audit Log (owners and admins; the server refuses anyone else): who did what, when —
// API keys, members, invitations, plan changes, jobs, schedules and settings — newest first,
// filtered by category and person, a page at a time.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { AUDIT_CATEGORIES, type AuditCategory } from '../../../../server/contracts/audit';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { fieldClassName } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useTRPC } from '../../../lib/trpc';
import { errorMessage } from '../../../lib/error-message';
import { formatMinor } from '../../billing/messages';

const PAGE_SIZE = 25;

const CATEGORY_BADGE: Record<AuditCategory, BadgeVariant> = {
  keys: 'brand',
  team: 'success',
  billing: 'warning',
  jobs: 'neutral',
  schedules: 'neutral',
  settings: 'neutral',
};

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Amounts the billing entries record in the currency's minor units (cents, paise). */
const MONEY_KEYS = new Set(['amount', 'payment_amount', 'refunded_amount']);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A recorded fact as a person reads it: a billing amount as money in the entry's currency ($79.00,
 * not 7900 cents) and a time as the column's dates are written, not ISO text; anything else as recorded.
 */
function detailValue(key: string, value: string, details: ReadonlyArray<{ key: string; value: string }>): string {
  const currency = details.find((d) => d.key === 'currency')?.value;
  if (MONEY_KEYS.has(key) && currency && /^[A-Z]{3}$/.test(currency) && /^-?\d+$/.test(value)) return formatMinor(Number(value), currency);
  if (ISO_TIME.test(value)) {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime())) return when.format(at);
  }
  return value;
}

/** An entry's recorded facts ('—' when it has none). */
function AuditDetails({ entry }: { entry: { details: ReadonlyArray<{ key: string; value: string }> } }) {
  if (entry.details.length === 0) return <>—</>;
  return (
    <dl className="space-y-0.5">
      {entry.details.map((d) => (
        <div key={d.key} className="flex gap-1.5">
          <dt className="shrink-0 text-slate-400">{d.key.replaceAll('_', ' ')}</dt>
          <dd className="min-w-0 font-mono break-all text-slate-700">{detailValue(d.key, d.value, entry.details)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AuditLog() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [category, setCategory] = useState<AuditCategory | ''>('');
  const [actor, setActor] = useState('');
  const log = useQuery({
    ...trpc.account.auditLog.queryOptions({ page, pageSize: PAGE_SIZE, category: category || undefined, actorUserId: actor || undefined }),
    placeholderData: keepPreviousData,
  });
  const data = log.data;

  return (
    <Card data-testid="audit-log">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ScrollText className="size-4 text-slate-500" aria-hidden /> Audit Log
        </CardTitle>
        <CardDescription>Who did what in this account, and when. Visible to the owner and admins.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-3">
          <label className="flex items-center gap-2 text-sm text-slate-600">
            Show
            <select
              aria-label="Category"
              value={category}
              onChange={(e) => {
                setCategory(e.target.value as AuditCategory | '');
                setPage(1);
              }}
              className={cn(fieldClassName, 'h-9 w-auto pr-8')}
            >
              <option value="">Everything</option>
              {(Object.keys(AUDIT_CATEGORIES) as AuditCategory[]).map((k) => (
                <option key={k} value={k}>{AUDIT_CATEGORIES[k].label}</option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-600">
            by
            <select
              aria-label="Person"
              value={actor}
              onChange={(e) => {
                setActor(e.target.value);
                setPage(1);
              }}
              className={cn(fieldClassName, 'h-9 w-auto max-w-[16rem] pr-8')}
            >
              <option value="">Anyone</option>
              {(data?.actors ?? []).map((a) => (
                <option key={a.user_id} value={a.user_id}>{a.email ?? 'Deleted user'}</option>
              ))}
            </select>
          </label>
        </div>

        {log.isPending ? (
          <div className="flex items-center gap-2 py-6 text-sm text-slate-500" role="status"><Spinner /> Loading the audit log…</div>
        ) : log.isError ? (
          <p className="py-6 text-sm text-red-700" role="alert">Failed to load the audit log: {errorMessage(log.error, 'please try again.')}</p>
        ) : data && data.items.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">No entries{category || actor ? ' match these filters' : ' yet'}.</p>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label="Audit log entries">
              <thead className="border-b border-slate-200 text-xs font-medium tracking-wide text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="py-2 pr-4 sm:w-44">When · Who</th>
                  <th scope="col" className="py-2 sm:pr-4">What</th>
                  <th scope="col" className="hidden py-2 sm:table-cell">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data?.items.map((e) => (
                  <tr key={e.id} data-testid="audit-row" className="align-top">
                    <td className="py-2.5 pr-4">
                      <div className="text-slate-900 sm:whitespace-nowrap">{when.format(new Date(e.at))}</div>
                      <div className="text-xs break-all text-slate-500" data-testid="audit-actor">
                        {e.actor.kind === 'user' ? (e.actor.email ?? 'Deleted user') : e.actor.kind === 'operator' ? 'Mailvet support' : e.actor.kind === 'api_key' ? 'API key' : 'Mailvet'}
                      </div>
                    </td>
                    <td className="py-2.5 sm:pr-4">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="font-medium text-slate-900" data-testid="audit-action">{e.label}</span>
                        {e.category && <Badge variant={CATEGORY_BADGE[e.category]}>{AUDIT_CATEGORIES[e.category].label}</Badge>}
                      </div>
                      {/* On a phone the details sit under the action: a third column pushed the table wider than its card. */}
                      {e.details.length > 0 && (
                        <div className="mt-1.5 text-xs text-slate-600 sm:hidden">
                          <AuditDetails entry={e} />
                        </div>
                      )}
                    </td>
                    <td className="hidden py-2.5 text-xs text-slate-600 sm:table-cell">
                      <AuditDetails entry={e} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}

        {data && data.total > 0 && (
          <div className="flex items-center justify-between gap-3 border-t border-slate-100 pt-3 text-sm text-slate-600">
            <span data-testid="audit-page">
              Page {data.page} of {data.pages} · {data.total.toLocaleString('en-US')} entr{data.total === 1 ? 'y' : 'ies'}
            </span>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1 || log.isFetching}>
                <ChevronLeft className="size-4" aria-hidden /> Previous
              </Button>
              <Button variant="outline" size="sm" onClick={() => setPage((p) => p + 1)} disabled={page >= data.pages || log.isFetching}>
                Next <ChevronRight className="size-4" aria-hidden />
              </Button>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
