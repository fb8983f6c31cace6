// One webhook delivery opened from the delivery log (owners and admins): what was sent where, each
// attempt with its answer, time taken and error, and the body every attempt sent. A failing
// receiver is debugged from here: the log row shows only the last attempt.
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { useTRPC } from '../../lib/trpc';
import { formatLastUsed } from './messages';

/** The body as sent is one line of JSON: shown indented (the bytes signed are the one line). */
function readableBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** "HTTP 503 · 91 ms", "10,000 ms" (no answer), from what an attempt recorded. */
export function answerSummary(statusCode: number | null, latencyMs: number | null): string {
  return [statusCode !== null ? `HTTP ${statusCode}` : null, latencyMs !== null ? `${latencyMs.toLocaleString('en-US')} ms` : null].filter(Boolean).join(' · ');
}

const STATUS_LABEL = { delivered: 'Delivered', failed: 'Failed', pending: 'Retrying' } as const;
const STATUS_BADGE = { delivered: 'success', failed: 'danger', pending: 'warning' } as const;

export function WebhookDeliveryDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const trpc = useTRPC();
  const delivery = useQuery({ ...trpc.webhooks.delivery.queryOptions({ id: id ?? '' }), enabled: id !== null });
  const d = delivery.data;
  return (
    <Dialog open={id !== null} onClose={onClose} size="xl" title="Webhook delivery" actions={<Button onClick={onClose}>Close</Button>}>
      {delivery.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {delivery.error.message || 'The delivery could not be loaded.'}
        </p>
      ) : !d ? (
        <Spinner size="sm" />
      ) : (
        <div className="space-y-4 text-sm text-slate-700">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5">
            <dt className="text-slate-500">Event</dt>
            <dd className="font-mono text-[13px]">{d.event}</dd>
            <dt className="text-slate-500">URL</dt>
            <dd className="font-mono text-[13px] break-all">{d.url}</dd>
            <dt className="text-slate-500">Status</dt>
            <dd>
              <Badge variant={STATUS_BADGE[d.status]}>{d.status === 'pending' && d.attempts === 0 ? 'Queued' : STATUS_LABEL[d.status]}</Badge>
            </dd>
            <dt className="text-slate-500">Delivery id</dt>
            <dd className="font-mono text-[13px] break-all">{d.id}</dd>
          </dl>
          <div>
            <h3 className="mb-1.5 font-medium text-slate-900">Attempts</h3>
            {d.attempt_log.length === 0 ? (
              <p className="text-slate-500">{d.error ?? 'Not attempted yet.'}</p>
            ) : (
              <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200">
                {d.attempt_log.map((a) => (
                  <li key={a.attempt} data-testid="webhook-attempt-row" className="flex flex-col gap-0.5 px-3 py-2 sm:flex-row sm:items-baseline sm:gap-3">
                    <span className="w-6 shrink-0 font-medium text-slate-900">{a.attempt}</span>
                    <span className="shrink-0 text-slate-500">{formatLastUsed(a.at)}</span>
                    <span className="shrink-0 font-mono text-xs">{answerSummary(a.status_code, a.latency_ms)}</span>
                    {a.error && <span className="min-w-0 text-xs break-words text-slate-500">{a.error}</span>}
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div>
            <h3 className="mb-1.5 font-medium text-slate-900">Body</h3>
            <pre data-testid="webhook-delivery-body" className="max-h-72 overflow-auto rounded-lg bg-slate-900 p-3 font-mono text-xs text-slate-100">
              {readableBody(d.body)}
            </pre>
          </div>
        </div>
      )}
    </Dialog>
  );
}
