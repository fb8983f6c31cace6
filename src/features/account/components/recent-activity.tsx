import { FileSpreadsheet, Mail } from 'lucide-react';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { ListFailed } from '../../../components/ui/list-states';
import { IconTile } from '../../../components/ui/icon-tile';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../jobs/format';
import { OVERVIEW_TEXT } from '../messages';
import type { ActivityItem } from '../types';

const RESULT_BADGE: Record<'valid' | 'invalid' | 'risky', BadgeVariant> = { valid: 'success', invalid: 'danger', risky: 'warning' };
const STATUS_BADGE: Record<'pending' | 'processing' | 'completed' | 'failed' | 'cancelled', BadgeVariant> = { pending: 'neutral', processing: 'brand', completed: 'success', failed: 'danger', cancelled: 'neutral' };
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function relativeTime(iso: string, now = Date.now()): string {
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 7) return `${d} ${d === 1 ? 'day' : 'days'} ago`;
  return new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/** What one line of the list shows for a single check or a bulk job. */
function describe(item: ActivityItem) {
  if (item.kind === 'check') {
    return {
      icon: Mail,
      tone: 'bg-slate-100 text-slate-500',
      title: item.email,
      titleClass: 'font-mono',
      detail: `Single check · score ${item.deliverability_score}%`,
      badge: <Badge variant={RESULT_BADGE[item.result]}>{cap(item.result)}</Badge>,
    };
  }
  const pct = item.total_emails > 0 ? Math.round((item.processed_emails / item.total_emails) * 100) : 0;
  return {
    icon: FileSpreadsheet,
    tone: 'bg-brand-50 text-brand-600',
    title: item.filename,
    titleClass: 'font-medium',
    detail: `Bulk job · ${item.processed_emails.toLocaleString('en-US')} of ${item.total_emails.toLocaleString('en-US')} (${pct}%)`,
    badge: <Badge variant={STATUS_BADGE[item.status]}>{cap(item.status)}</Badge>,
  };
}

function Row({ item }: { item: ActivityItem }) {
  const row = describe(item);
  return (
    <li className="flex items-center gap-3 py-3">
      <IconTile icon={row.icon} className={cn('size-8 shrink-0 rounded-full', row.tone)} />
      <div className="min-w-0 flex-1">
        <p className={cn('truncate text-sm text-slate-900', row.titleClass)}>{row.title}</p>
        <p className="text-xs text-slate-500">{row.detail}</p>
      </div>
      {row.badge}
      <time dateTime={item.at} title={formatDateTime(item.at)} className="shrink-0 text-xs text-slate-500">
        {relativeTime(item.at)}
      </time>
    </li>
  );
}

/** `onRetry`: the overview could not load (silent, spec 8: no toast); the card says so instead of 'No recent activity yet'. */
export function RecentActivity({ items, loading, onRetry }: { items: ActivityItem[] | undefined; loading: boolean; onRetry?: () => void }) {
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>{OVERVIEW_TEXT.recent}</CardTitle>
      </CardHeader>
      <CardContent>
        {loading && !items ? (
          <ul className="space-y-3" aria-hidden>
            {[0, 1, 2].map((i) => (
              <li key={i} className="h-10 animate-pulse rounded-lg bg-slate-100" />
            ))}
          </ul>
        ) : !items && onRetry ? (
          <ListFailed message="Could not load your recent activity." onRetry={onRetry} />
        ) : !items || items.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-200 py-10 text-center">
            <p className="text-sm font-medium text-slate-700">{OVERVIEW_TEXT.recentEmpty}</p>
            <p className="mt-1 text-sm text-slate-500">Your single checks and bulk jobs will show up here.</p>
          </div>
        ) : (
          <ul className="-my-3 divide-y divide-slate-100" aria-label={OVERVIEW_TEXT.recent} data-testid="recent-activity">
            {items.map((item) => (
              <Row key={`${item.kind}-${item.id}`} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
