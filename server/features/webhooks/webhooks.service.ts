// The dashboard's side of outgoing webhooks (API Keys page, Enterprise): the account's endpoints,
// the delivery log with each attempt, replay, and the retention purge. Deliveries are created and
// queued by webhook-queue.ts and sent by webhook-delivery.ts.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../../../db/client';
import type { Database, WebhookDeliveryTable, WebhookEvent } from '../../../db/types';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookDelivery, type WebhookEndpoint } from '../../contracts/webhooks';
import { planAllows, type PlanType } from '../../contracts/plans';
import { GATE_MESSAGES } from '../../trpc/procedures';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { checkWebhookUrl } from './webhook-url';
import { ENDPOINT_DELETED_ERROR, goesToJobOwnUrl } from './webhook-delivery';
import { queueDelivery, WEBHOOK_TASK } from './webhook-queue';

type Q = Kysely<Database>;

function endpointView(r: { id: string; url: string; events: WebhookEvent[]; created_at: Date }): WebhookEndpoint {
  return { id: r.id, url: r.url, events: r.events, created_at: r.created_at.toISOString() };
}

export async function listEndpoints(db: Db, accountId: string): Promise<WebhookEndpoint[]> {
  const rows = await db.selectFrom('webhook_endpoint').select(['id', 'url', 'events', 'created_at']).where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  return rows.map(endpointView);
}

export async function createEndpoint(deps: Pick<AppDeps, 'db' | 'env'>, o: { accountId: string; userId: string; url: string; events: WebhookEvent[] }): Promise<WebhookEndpoint> {
  const check = await checkWebhookUrl(o.url, { allowPrivate: deps.env.WEBHOOK_ALLOW_PRIVATE, dnsServers: deps.env.WEBHOOK_DNS_SERVERS });
  if (!check.ok) throw new AppError('BAD_INPUT', check.message);
  const url = check.url.toString();
  return deps.db.transaction().execute(async (trx) => {
    // Serialised per account, so two tabs cannot both add the last allowed endpoint.
    await trx.selectFrom('account').select('id').where('id', '=', o.accountId).forUpdate().executeTakeFirst();
    const existing = await trx.selectFrom('webhook_endpoint').select(['url']).where('account_id', '=', o.accountId).execute();
    if (existing.some((e) => e.url === url)) throw new AppError('CONFLICT', 'This webhook URL is already registered; change its events instead.');
    if (existing.length >= MAX_WEBHOOK_ENDPOINTS) throw new AppError('BAD_INPUT', `An account can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`);
    const events = [...new Set(o.events)];
    const row = await trx.insertInto('webhook_endpoint').values({ account_id: o.accountId, url, events, created_by: o.userId }).returning(['id', 'url', 'events', 'created_at']).executeTakeFirstOrThrow();
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.endpoint_created', targetType: 'webhook_endpoint', targetId: row.id, data: { url, events } });
    return endpointView(row);
  });
}

/** What the delivery log says of a delivery whose event its endpoint stopped subscribing to before it got through. */
export const EVENT_UNSUBSCRIBED_ERROR = 'The webhook endpoint no longer subscribes to this event; this delivery was not retried.';

/**
 * Ends the endpoint's deliveries still pending (waiting for a retry) as failed, with `reason` in the
 * log, and removes their queued retries; `keep` lists the events whose deliveries go on. An attempt
 * already under way finishes and is logged.
 */
async function stopPendingDeliveries(trx: Q, o: { accountId: string; endpointId: string; keep: WebhookEvent[]; reason: string }): Promise<void> {
  let q = trx
    .updateTable('webhook_delivery')
    .set({ status: 'failed', last_error: o.reason, completed_at: new Date() })
    .where('account_id', '=', o.accountId)
    .where('endpoint_id', '=', o.endpointId)
    .where('status', '=', 'pending');
  if (o.keep.length > 0) q = q.where('event', 'not in', o.keep);
  const stopped = await q.returning('id').execute();
  for (const d of stopped) await sql`select graphile_worker.remove_job(${`${WEBHOOK_TASK}:${d.id}`}::text)`.execute(trx);
}

export async function updateEndpoint(db: Db, o: { accountId: string; userId: string; id: string; events: WebhookEvent[] }): Promise<WebhookEndpoint> {
  return db.transaction().execute(async (trx) => {
    const events = [...new Set(o.events)];
    const row = await trx.updateTable('webhook_endpoint').set({ events }).where('id', '=', o.id).where('account_id', '=', o.accountId).returning(['id', 'url', 'events', 'created_at']).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
    // Unsubscribed events: their pending retries stop, as when the endpoint is deleted.
    await stopPendingDeliveries(trx, { accountId: o.accountId, endpointId: row.id, keep: events, reason: EVENT_UNSUBSCRIBED_ERROR });
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.endpoint_updated', targetType: 'webhook_endpoint', targetId: row.id, data: { url: row.url, events } });
    return endpointView(row);
  });
}

/** Why a delivery of a deleted endpoint cannot be replayed. */
export const REPLAY_ENDPOINT_DELETED_MESSAGE = "This delivery's webhook endpoint was deleted; nothing more is sent to its URL. Add the endpoint again to receive new events.";

/**
 * Removes an endpoint. Its deliveries still pending (waiting for a retry) end here as failed, with
 * their queued retries removed: nothing more is sent to a URL the account took away. An attempt
 * already under way finishes and is logged.
 */
export async function deleteEndpoint(db: Db, o: { accountId: string; userId: string; id: string }): Promise<{ id: string }> {
  return db.transaction().execute(async (trx) => {
    // Locked first: a replay under way (which holds it FOR SHARE) has inserted its delivery by now,
    // so it is stopped below with the rest; one that comes after finds the endpoint gone.
    await trx.selectFrom('webhook_endpoint').select('id').where('id', '=', o.id).where('account_id', '=', o.accountId).forUpdate().executeTakeFirst();
    // Before the delete, which sets their endpoint_id to null (replays carry it too). Nothing is
    // changed if the endpoint is not this account's: the NOT_FOUND below rolls this back.
    await stopPendingDeliveries(trx, { accountId: o.accountId, endpointId: o.id, keep: [], reason: ENDPOINT_DELETED_ERROR });
    const row = await trx.deleteFrom('webhook_endpoint').where('id', '=', o.id).where('account_id', '=', o.accountId).returning(['id', 'url']).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.endpoint_deleted', targetType: 'webhook_endpoint', targetId: row.id, data: { url: row.url } });
    return { id: row.id };
  });
}

/**
 * A person leaves an account (removed from the team, left, or deleted their user): the webhook
 * endpoints they added there are deleted as deleteEndpoint does (pending deliveries stopped,
 * audited), so the account's events (a schedule run's changed addresses among them) stop going to a
 * URL they chose. Call inside the transaction that ends the membership; without `accountId`, in
 * every account (a user being deleted: before the user row goes, and created_by with it).
 */
export async function deleteEndpointsOfLeavingUser(
  trx: Q,
  o: { accountId?: string; userId: string; actorUserId: string | null; reason: 'member_removed' | 'member_left' | 'user_deleted' },
): Promise<number> {
  let q = trx.selectFrom('webhook_endpoint').select(['id', 'url', 'account_id']).where('created_by', '=', o.userId);
  if (o.accountId !== undefined) q = q.where('account_id', '=', o.accountId);
  const rows = await q.orderBy('id').forUpdate().execute();
  for (const r of rows) {
    await stopPendingDeliveries(trx, { accountId: r.account_id, endpointId: r.id, keep: [], reason: ENDPOINT_DELETED_ERROR });
    await trx.deleteFrom('webhook_endpoint').where('id', '=', r.id).execute();
    await writeAudit(trx as unknown as Db, { accountId: r.account_id, actorUserId: o.actorUserId, action: 'webhook.endpoint_deleted', targetType: 'webhook_endpoint', targetId: r.id, data: { url: r.url, reason: o.reason, created_by: o.userId } });
  }
  return rows.length;
}

type DeliveryRow = Pick<
  Selectable<WebhookDeliveryTable>,
  'id' | 'event' | 'url' | 'status' | 'attempts' | 'last_status_code' | 'last_latency_ms' | 'last_error' | 'job_id' | 'replay_of' | 'created_at' | 'completed_at'
>;

function deliveryView(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    event: r.event,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    status_code: r.last_status_code,
    latency_ms: r.last_latency_ms,
    error: r.last_error,
    job_id: r.job_id,
    replay_of: r.replay_of,
    created_at: r.created_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
  };
}

const DELIVERY_COLUMNS = ['id', 'event', 'url', 'status', 'attempts', 'last_status_code', 'last_latency_ms', 'last_error', 'job_id', 'replay_of', 'created_at', 'completed_at'] as const;

/** The account's deliveries, newest first, a page at a time (cursor: the last id of the previous page). */
export async function listDeliveries(
  db: Db,
  accountId: string,
  o: { cursor?: string; event?: WebhookEvent; status?: 'pending' | 'delivered' | 'failed'; limit: number },
): Promise<{ items: WebhookDelivery[]; next_cursor: string | null }> {
  let q = db.selectFrom('webhook_delivery').select([...DELIVERY_COLUMNS]).where('account_id', '=', accountId);
  if (o.event) q = q.where('event', '=', o.event);
  if (o.status) q = q.where('status', '=', o.status);
  if (o.cursor) {
    const at = await db.selectFrom('webhook_delivery').select(['created_at', 'id']).where('id', '=', o.cursor).where('account_id', '=', accountId).executeTakeFirst();
    if (!at) throw new AppError('BAD_INPUT', 'Invalid cursor.');
    q = q.where((eb) => eb.or([eb('created_at', '<', at.created_at), eb.and([eb('created_at', '=', at.created_at), eb('id', '<', at.id)])]));
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit + 1).execute();
  const items = rows.slice(0, o.limit).map(deliveryView);
  return { items, next_cursor: rows.length > o.limit ? items[items.length - 1]!.id : null };
}

/** One delivery with its attempts (and the exact body sent). */
export async function getDelivery(db: Db, accountId: string, id: string) {
  const d = await db.selectFrom('webhook_delivery').select([...DELIVERY_COLUMNS, 'body']).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!d) throw new AppError('NOT_FOUND', 'Delivery not found.');
  const attempts = await db.selectFrom('webhook_attempt').select(['attempt', 'status_code', 'latency_ms', 'error', 'created_at']).where('delivery_id', '=', id).where('account_id', '=', accountId).orderBy('id').execute();
  return { ...deliveryView(d), body: d.body, attempt_log: attempts.map((a) => ({ attempt: a.attempt, status_code: a.status_code, latency_ms: a.latency_ms, error: a.error, at: a.created_at.toISOString() })) };
}

/**
 * Sends a delivery's exact body again as a new delivery (own id, own log), signed with today's secret.
 * An account endpoint's delivery needs the plan that includes account webhooks (Enterprise); a job's
 * own webhook_url, the plan with job webhooks (the router's gate).
 */
export async function replayDelivery(db: Db, o: { accountId: string; userId: string; plan: PlanType; id: string }): Promise<WebhookDelivery> {
  return db.transaction().execute(async (trx) => {
    const d = await trx.selectFrom('webhook_delivery').select(['id', 'account_id', 'endpoint_id', 'job_id', 'event', 'url', 'body']).where('id', '=', o.id).where('account_id', '=', o.accountId).executeTakeFirst();
    if (!d) throw new AppError('NOT_FOUND', 'Delivery not found.');
    if (d.endpoint_id !== null && !planAllows(o.plan, 'integrations')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.integrations);
    if (d.endpoint_id !== null) {
      // Held until this replay commits: deleteEndpoint then stops it with the endpoint's other pending deliveries.
      const endpoint = await trx.selectFrom('webhook_endpoint').select('id').where('id', '=', d.endpoint_id).forShare().executeTakeFirst();
      if (!endpoint) throw new AppError('CONFLICT', REPLAY_ENDPOINT_DELETED_MESSAGE);
    } else if (!(await goesToJobOwnUrl(trx, d))) throw new AppError('CONFLICT', REPLAY_ENDPOINT_DELETED_MESSAGE);
    const row = await trx
      .insertInto('webhook_delivery')
      .values({ account_id: d.account_id, endpoint_id: d.endpoint_id, job_id: d.job_id, event: d.event, url: d.url, body: d.body, replay_of: d.id, created_by: o.userId })
      .returning([...DELIVERY_COLUMNS, 'account_id'])
      .executeTakeFirstOrThrow();
    await writeAudit(trx as unknown as Db, { accountId: o.accountId, actorUserId: o.userId, action: 'webhook.replayed', targetType: 'webhook_delivery', targetId: row.id, data: { replay_of: d.id, event: d.event, url: d.url } });
    await queueDelivery(trx, row);
    return deliveryView(row);
  });
}

/**
 * Retention: deliveries (their bodies hold addresses) and their attempts older than the cutoff are
 * deleted, a batch at a time. Pending ones too: retries end within hours (WEBHOOK_RETRY_WINDOW_HOURS),
 * so a delivery still pending after 90 days is stuck (its task lost) and would otherwise keep its
 * addresses for ever. Called by the retention purge.
 */
export async function purgeWebhookDeliveries(db: Db, cutoff: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await db
      .deleteFrom('webhook_delivery')
      .where('id', 'in', (eb) => eb.selectFrom('webhook_delivery').select('id').where('created_at', '<', cutoff).limit(1000))
      .returning('id')
      .execute();
    total += gone.length;
    if (gone.length < 1000) return total;
  }
}
