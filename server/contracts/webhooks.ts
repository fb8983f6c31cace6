// Outgoing webhooks: the shapes the dashboard and the server share. Pure data: shared with the browser.
import { z } from 'zod';

export const WEBHOOK_EVENTS = ['job.completed', 'job.failed', 'job.cancelled', 'schedule.run_completed'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventName, string> = {
  'job.completed': 'A bulk job completed',
  'job.failed': 'A bulk job failed',
  'job.cancelled': 'A bulk job was cancelled (from History or through the API)',
  'schedule.run_completed': 'An auto-revalidation run completed (with the addresses whose status changed)',
};

/** Account webhook endpoints an account may have. */
export const MAX_WEBHOOK_ENDPOINTS = 5;
/** A schedule.run_completed payload lists at most this many changed addresses (`truncated` says when more changed). */
export const MAX_CHANGES_PER_PAYLOAD = 1_000;
/** Bytes of a receiver's answer read before the connection is closed. */
export const WEBHOOK_RESPONSE_CAP_BYTES = 64 * 1024;
/** Attempts a webhook delivery gets before it is failed (graphile-worker's max_attempts of its task). */
export const MAX_WEBHOOK_ATTEMPTS = 10;
/**
 * How long a failing delivery is retried, to the half hour: graphile-worker waits e^n seconds after
 * the n-th failed attempt, so the 10 attempts (webhook-queue.ts MAX_WEBHOOK_ATTEMPTS) span
 * e^1 + … + e^9 ≈ 12,800 s. Measured in tests/integration/webhooks.retry-schedule.test.ts.
 */
export const WEBHOOK_RETRY_WINDOW_HOURS = 3.5;

const eventName = z.enum(WEBHOOK_EVENTS, { error: `Unknown webhook event; use ${WEBHOOK_EVENTS.join(', ')}.` });

export const webhookEventsInput = z
  .array(eventName, { error: 'events must be a list of event names.' })
  .min(1, 'Choose at least one event.')
  .max(WEBHOOK_EVENTS.length, 'Each event may be listed once.')
  .refine((a) => new Set(a).size === a.length, 'Each event may be listed once.');

export const createWebhookEndpointInput = z.object({
  url: z.string({ error: 'Please enter a webhook URL' }).trim().min(1, 'Please enter a webhook URL').max(2048, 'webhook_url must be at most 2048 characters.'),
  events: webhookEventsInput,
});
export const updateWebhookEndpointInput = z.object({ id: z.uuid({ error: 'Unknown webhook endpoint.' }), events: webhookEventsInput });
export const webhookEndpointIdInput = z.object({ id: z.uuid({ error: 'Unknown webhook endpoint.' }) });

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  created_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const DELIVERY_PAGE_SIZE = 20;

export const listDeliveriesInput = z
  .object({
    /** The last delivery id of the previous page. */
    cursor: z.uuid({ error: 'Invalid cursor.' }).optional(),
    event: eventName.optional(),
    status: z.enum(['pending', 'delivered', 'failed'], { error: 'status must be pending, delivered or failed.' }).optional(),
    limit: z.number().int().min(1).max(100).default(DELIVERY_PAGE_SIZE),
  })
  .default({ limit: DELIVERY_PAGE_SIZE });

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  status_code: z.number().nullable(),
  latency_ms: z.number().nullable(),
  error: z.string().nullable(),
  job_id: z.string().nullable(),
  replay_of: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookAttemptSchema = z.object({
  attempt: z.number(),
  status_code: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
  at: z.string(),
});

export const deliveryIdInput = z.object({ id: z.uuid({ error: 'Delivery not found.' }) });

export const signingSecretSchema = z.object({
  /** Only while the account signs with its original secret; a rotated secret is shown once, in rotateSecret's answer. */
  secret: z.string().nullable(),
  hint: z.string(),
  rotated_at: z.string().nullable(),
});
export const rotatedSecretSchema = z.object({ secret: z.string(), hint: z.string(), rotated_at: z.string() });
