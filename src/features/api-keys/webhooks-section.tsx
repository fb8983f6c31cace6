// The API Keys page's webhook settings (owners and admins): the signing secret and its rotation
// (a new secret is shown once, in a dialog), the account's webhook endpoints with the events each
// subscribes to (Enterprise), and the delivery log with replay.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BookOpen, FileSearch, RefreshCw, RotateCcw, Trash2, Webhook } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Plan } from '../../../db/types';
import { planAllows } from '../../../server/contracts/plans';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENTS, WEBHOOK_RETRY_WINDOW_HOURS, type WebhookEventName } from '../../../server/contracts/webhooks';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { ListFailed } from '../../components/ui/list-states';
import { Spinner } from '../../components/ui/spinner';
import { Select, type SelectOption } from '../../components/ui/select';
import { Table, TableRows, cellClass } from '../../components/ui/table';
import { useSubmitOnce } from '../../hooks/use-submit-once';
import { useTRPC } from '../../lib/trpc';
import { API_KEYS_TEXT, formatLastUsed } from './messages';
import { SecretField } from './secret-field';
import { answerSummary, WebhookDeliveryDialog } from './webhook-delivery-dialog';

export const WEBHOOKS_TEXT = {
  rotateTitle: 'Rotate signing secret?',
  rotateBody: 'A new secret starts signing every webhook at once, retries included. The current secret stops working immediately: update your receivers right after.',
  rotatedTitle: 'New signing secret',
  rotatedBody: "Copy it now: it won't be shown again.",
  rotateFailed: 'Failed to rotate the signing secret',
  endpointAdded: 'Webhook endpoint added',
  endpointRemoved: 'Webhook endpoint removed',
  endpointUpdated: 'Webhook events updated',
  replayed: 'Delivery queued again',
  chooseEvent: 'Choose at least one event.',
} as const;

function errorMessage(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

const td = cellClass('compact', 'text-sm text-slate-700');

const EVENT_FILTERS: ReadonlyArray<SelectOption<WebhookEventName | ''>> = [{ value: '', label: 'All events' }, ...WEBHOOK_EVENTS.map((e) => ({ value: e, label: e }))];
const STATUS_FILTERS = [
  { value: '', label: 'All statuses' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'pending', label: 'Retrying' },
  { value: 'failed', label: 'Failed' },
] as const satisfies ReadonlyArray<SelectOption<string>>;

function SigningSecretCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The answer that creates the secret is the only one that carries it: never refetch it behind the user's back.
  const secret = useQuery({ ...trpc.apiKeys.webhookSecret.queryOptions(), staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false });
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions());
  const [confirming, setConfirming] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  // Once per confirmation: the button's busy state comes a render later, and a double-click rotated
  // twice, the second secret replacing the first (the one shown could be the one already replaced).
  const rotating = useRef(false);
  async function doRotate() {
    if (rotating.current) return;
    rotating.current = true;
    try {
      const r = await rotate.mutateAsync();
      setConfirming(false);
      setShown(r.secret);
      await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.webhookSecret.queryKey() });
    } catch (err) {
      toast.error(API_KEYS_TEXT.errorTitle, { description: errorMessage(err, WEBHOOKS_TEXT.rotateFailed) });
    } finally {
      rotating.current = false;
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Webhook className="size-4 text-slate-500" aria-hidden /> Webhook signing secret
        </CardTitle>
        <CardDescription>
          Bulk jobs started with a <code className="font-mono text-[13px]">webhook_url</code> call it when they finish. Every call carries{' '}
          <code className="font-mono text-[13px]">X-Mailvet-Signature-V2: t=&lt;timestamp&gt;,v1=&lt;hex&gt;</code>, the HMAC-SHA256 with this secret of the
          timestamp, the delivery id and the raw body (the Documentation page shows how). Verify it, and refuse a timestamp more than 5 minutes
          old, before trusting the call.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          {secret.data?.secret ? (
            <div className="flex max-w-2xl flex-1 flex-col gap-1.5">
              <SecretField value={secret.data.secret} label="Webhook signing secret" copiedTitle={API_KEYS_TEXT.secretCopiedTitle} copiedMessage={API_KEYS_TEXT.secretCopiedBody} />
              <p className="text-xs text-amber-700" data-testid="webhook-secret-once">Copy it now: it is shown only this once. Rotate it to get a new one.</p>
            </div>
          ) : secret.data ? (
            <p className="flex-1 text-sm text-slate-600" data-testid="webhook-secret-hint">
              <span className="font-mono text-slate-900">{secret.data.hint}</span>
              {secret.data.rotated_at && <span className="ml-2">created {formatLastUsed(secret.data.rotated_at)}; shown only once, when it was created. Rotate it to get a new one.</span>}
            </p>
          ) : secret.isError ? (
            <p className="flex-1 text-sm text-slate-500">The signing secret could not be loaded.</p>
          ) : (
            <Spinner size="sm" />
          )}
          <Button variant="outline" onClick={() => setConfirming(true)} disabled={!secret.data}>
            <RefreshCw className="size-4" aria-hidden /> Rotate Secret
          </Button>
        </div>
        <p className="mt-3 flex items-center gap-1.5 text-xs text-slate-500">
          <BookOpen className="size-3.5" aria-hidden /> See Webhooks in the API reference for a verification example.
        </p>
      </CardContent>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={WEBHOOKS_TEXT.rotateTitle}
        description={WEBHOOKS_TEXT.rotateBody}
        actions={
          <>
            <Button variant="outline" onClick={() => setConfirming(false)} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => void doRotate()} loading={rotate.isPending}>
              Rotate Secret
            </Button>
          </>
        }
      />
      <Dialog
        open={shown !== null}
        onClose={() => setShown(null)}
        size="lg"
        title={WEBHOOKS_TEXT.rotatedTitle}
        description={WEBHOOKS_TEXT.rotatedBody}
        actions={<Button onClick={() => setShown(null)}>Done</Button>}
      >
        {shown && <SecretField value={shown} label="New webhook signing secret" copiedTitle={API_KEYS_TEXT.secretCopiedTitle} copiedMessage={API_KEYS_TEXT.secretCopiedBody} />}
      </Dialog>
    </Card>
  );
}

function EventChoices({ value, onChange, idPrefix, disabled }: { value: WebhookEventName[]; onChange: (v: WebhookEventName[]) => void; idPrefix: string; disabled?: boolean }) {
  return (
    <div className="flex flex-wrap gap-x-5 gap-y-2" role="group" aria-label="Events">
      {WEBHOOK_EVENTS.map((e) => (
        <label key={e} htmlFor={`${idPrefix}-${e}`} className="flex items-center gap-2 text-sm text-slate-700">
          <input
            id={`${idPrefix}-${e}`}
            type="checkbox"
            className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
            checked={value.includes(e)}
            disabled={disabled}
            onChange={(ev) => onChange(ev.target.checked ? [...value, e] : value.filter((x) => x !== e))}
          />
          <code className="font-mono text-[13px]">{e}</code>
        </label>
      ))}
    </div>
  );
}

function EndpointsCard({ plan }: { plan: Plan }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const allowed = planAllows(plan, 'integrations');
  const endpoints = useQuery(trpc.webhooks.endpoints.queryOptions());
  const create = useMutation(trpc.webhooks.createEndpoint.mutationOptions());
  const update = useMutation(trpc.webhooks.updateEndpoint.mutationOptions());
  const remove = useMutation(trpc.webhooks.deleteEndpoint.mutationOptions());
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventName[]>(['job.completed', 'job.failed']);
  const [formError, setFormError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoints.queryKey() });
  const list = endpoints.data ?? [];

  // A second click or Enter while adding is ignored (it was refused as a duplicate under the success toast).
  const add = useSubmitOnce(async (e: React.FormEvent) => {
    e.preventDefault();
    if (events.length === 0) return setFormError(WEBHOOKS_TEXT.chooseEvent);
    try {
      await create.mutateAsync({ url, events });
      setUrl('');
      setFormError(null);
      toast.success(WEBHOOKS_TEXT.endpointAdded);
      await refresh();
    } catch (err) {
      setFormError(errorMessage(err, 'The endpoint could not be added.'));
    }
  });

  async function setEventsOf(id: string, next: WebhookEventName[]) {
    if (next.length === 0) return toast.error(API_KEYS_TEXT.errorTitle, { description: WEBHOOKS_TEXT.chooseEvent });
    try {
      await update.mutateAsync({ id, events: next });
      toast.success(WEBHOOKS_TEXT.endpointUpdated);
      await refresh();
    } catch (err) {
      toast.error(API_KEYS_TEXT.errorTitle, { description: errorMessage(err, 'The events could not be changed.') });
    }
  }

  async function drop(id: string) {
    try {
      await remove.mutateAsync({ id });
      toast.success(WEBHOOKS_TEXT.endpointRemoved);
      await refresh();
    } catch (err) {
      toast.error(API_KEYS_TEXT.errorTitle, { description: errorMessage(err, 'The endpoint could not be removed.') });
    }
  }

  return (
    <Card data-testid="webhook-endpoints">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Webhook className="size-4 text-slate-500" aria-hidden /> Account webhooks
          {!allowed && <Badge variant="brand">Enterprise</Badge>}
        </CardTitle>
        <CardDescription>
          Endpoints that receive this account&apos;s events, whichever key or person started the work: <code className="font-mono text-[13px]">job.completed</code>,{' '}
          <code className="font-mono text-[13px]">job.failed</code>, <code className="font-mono text-[13px]">job.cancelled</code> and{' '}
          <code className="font-mono text-[13px]">schedule.run_completed</code> (with the addresses whose
          status changed since the previous run). Up to {MAX_WEBHOOK_ENDPOINTS} endpoints, HTTPS on port 443.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {endpoints.isError && <ListFailed message="Your webhook endpoints could not be loaded." onRetry={() => void endpoints.refetch()} />}
        {list.length > 0 && (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {list.map((ep) => (
              <li key={ep.id} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="webhook-endpoint-row">
                <div className="min-w-0 space-y-2">
                  <p className="truncate font-mono text-[13px] text-slate-900">{ep.url}</p>
                  <EventChoices idPrefix={`ep-${ep.id}`} value={ep.events} onChange={(v) => void setEventsOf(ep.id, v)} disabled={!allowed || update.isPending} />
                </div>
                <Button variant="ghost" size="sm" className="text-red-600 hover:bg-red-50 hover:text-red-700" onClick={() => void drop(ep.id)} aria-label={`Remove ${ep.url}`}>
                  <Trash2 className="size-3.5" aria-hidden /> Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        {allowed ? (
          <form onSubmit={(e) => void add(e)} noValidate className="space-y-3" aria-label="Add webhook endpoint">
            <div>
              <Label htmlFor="webhook-endpoint-url">Endpoint URL</Label>
              <Input id="webhook-endpoint-url" className="mt-1.5 max-w-2xl" placeholder="https://example.com/webhooks/mailvet" value={url} onChange={(e) => setUrl(e.target.value)} />
            </div>
            <EventChoices idPrefix="new" value={events} onChange={setEvents} />
            {formError && (
              <p role="alert" className="text-sm text-red-600">
                {formError}
              </p>
            )}
            <Button type="submit" loading={create.isPending} disabled={list.length >= MAX_WEBHOOK_ENDPOINTS}>
              Add Endpoint
            </Button>
          </form>
        ) : (
          <p className="text-sm text-slate-600">Account webhooks are part of the Enterprise plan. Bulk jobs can still call a <code className="font-mono text-[13px]">webhook_url</code> given with each request.</p>
        )}
      </CardContent>
    </Card>
  );
}

const STATUS_BADGE = { delivered: 'success', failed: 'danger', pending: 'warning' } as const;

function DeliveryLogCard({ plan }: { plan: Plan }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [event, setEvent] = useState<(typeof EVENT_FILTERS)[number]['value']>('');
  const [status, setStatus] = useState<(typeof STATUS_FILTERS)[number]['value']>('');
  const filter = { ...(event ? { event } : {}), ...(status ? { status } : {}) };
  const log = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(filter, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      refetchInterval: 5000,
    }),
  );
  const replay = useMutation(trpc.webhooks.replay.mutationOptions());
  const canReplay = planAllows(plan, 'webhooks');
  const [opened, setOpened] = useState<string | null>(null);
  const rows = log.data?.pages.flatMap((p) => p.items) ?? [];

  async function doReplay(id: string) {
    try {
      await replay.mutateAsync({ id });
      toast.success(WEBHOOKS_TEXT.replayed);
      await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
    } catch (err) {
      toast.error(API_KEYS_TEXT.errorTitle, { description: errorMessage(err, 'The delivery could not be replayed.') });
    }
  }

  const select = 'h-9 rounded-lg border border-slate-300 bg-white px-2.5 text-sm text-slate-700 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/20 focus:outline-none';
  return (
    <Card className="overflow-hidden" data-testid="webhook-deliveries">
      <CardHeader>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle>Webhook deliveries</CardTitle>
            <CardDescription>Every call we made to your webhooks, newest first: answer, time taken and attempts (Details lists each attempt and the body sent). Failed calls are retried for about {WEBHOOK_RETRY_WINDOW_HOURS} hours.</CardDescription>
          </div>
          {/* On a phone the two filters share the row (the longest event name would push the second out of the card),
              or, where the two labels do not both fit (320 px: 'All statuses' read 'All statuse'), take a row each. */}
          <div className="flex flex-wrap gap-2 sm:flex-nowrap">
            <Select aria-label="Filter by event" className={`${select} min-w-0 flex-[1_1_8rem] sm:flex-none`} value={event} onValueChange={setEvent} options={EVENT_FILTERS} />
            <Select aria-label="Filter by status" className={`${select} flex-[1_0_auto] sm:flex-none`} value={status} onValueChange={setStatus} options={STATUS_FILTERS} />
          </div>
        </div>
      </CardHeader>
      <div className="@container relative overflow-x-auto border-t border-slate-200">
        <Table
          caption="Webhook deliveries"
          density="compact"
          columns={[{ header: 'Time' }, { header: 'Event' }, { header: 'URL' }, { header: 'Result' }, { header: 'Attempts', align: 'center' }, { header: 'Actions', srOnly: true, align: 'right' }]}
        >
          <TableRows colSpan={6} query={log} loadingText="Loading deliveries…" failedText="The delivery log could not be loaded." rows={rows} empty="No webhook deliveries yet.">
            {(d) => (
              <tr key={d.id} data-testid="webhook-delivery-row">
                <td className={`${td} text-slate-500`}>{formatLastUsed(d.created_at)}</td>
                <td className={`${td} font-mono text-[13px] whitespace-nowrap`}>
                  {d.event}
                  {d.replay_of && (
                    <Badge variant="neutral" className="ml-2 font-sans">
                      Replay
                    </Badge>
                  )}
                </td>
                <td className={`${td} max-w-52 truncate font-mono text-[13px]`} title={d.url}>
                  {d.url}
                </td>
                <td className={`${td} max-w-64`}>
                  <div className="flex items-center gap-2 whitespace-nowrap">
                    <Badge variant={STATUS_BADGE[d.status]}>{d.status === 'pending' ? (d.attempts > 0 ? 'Retrying' : 'Queued') : d.status === 'delivered' ? 'Delivered' : 'Failed'}</Badge>
                    <span className="font-mono text-xs text-slate-500">{answerSummary(d.status_code, d.latency_ms)}</span>
                  </div>
                  {d.error && (
                    <span className="mt-1 block truncate text-xs text-slate-500" title={d.error}>
                      {d.error}
                    </span>
                  )}
                </td>
                <td className={`${td} text-center`}>{d.attempts}</td>
                <td className={`${td} text-right whitespace-nowrap`}>
                  <Button variant="ghost" size="sm" onClick={() => setOpened(d.id)} aria-label={`Details of delivery ${d.id}`}>
                    <FileSearch className="size-3.5" aria-hidden /> Details
                  </Button>
                  {canReplay && (
                    <Button variant="ghost" size="sm" onClick={() => void doReplay(d.id)} disabled={replay.isPending} aria-label={`Replay delivery ${d.id}`}>
                      <RotateCcw className="size-3.5" aria-hidden /> Replay
                    </Button>
                  )}
                </td>
              </tr>
            )}
          </TableRows>
        </Table>
      </div>
      <WebhookDeliveryDialog id={opened} onClose={() => setOpened(null)} />
      {log.hasNextPage && (
        <div className="border-t border-slate-200 px-6 py-3 text-center">
          <Button variant="ghost" size="sm" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </Card>
  );
}

/** Owners and admins on a plan with API keys. */
export function WebhooksSection({ plan }: { plan: Plan }) {
  return (
    <div className="space-y-6">
      <SigningSecretCard />
      <EndpointsCard plan={plan} />
      <DeliveryLogCard plan={plan} />
    </div>
  );
}
