// The stack the webhook delivery tests share, one per test file (tests/integration/webhooks.*):
// the app with its workers and a probe daemon over the simulated mail world (normal.* domains), webhook
// deliveries allowed to loopback and bounded at WEBHOOK_DEADLINE_MS, two bulk-job and two webhook
// slots; a receiver that records every request; and the helpers the files read them with.
import { insertFinishedJob, type FinishedJobOptions } from './jobs';
import { fileFixture } from './file-fixture';
import { probeStack } from './probe-stack';
import { startWebhookReceiver } from './webhook-receiver';
import { buildScenarios } from '../mailworld/index';

/** WEBHOOK_TIMEOUT_MS of the stack: the whole of one delivery attempt. */
export const WEBHOOK_DEADLINE_MS = 3000;
const TOKEN = 'webhooks-delivery-token';

/** A tRPC answer's data. */
export const data = (r: { body: any }) => r.body.result.data;

export function webhookDeliveryStack() {
  const stack = probeStack({
    token: TOKEN,
    domains: buildScenarios().filter((d) => d.domain.startsWith('normal.')),
    role: 'all',
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: String(WEBHOOK_DEADLINE_MS), WORKER_CONCURRENCY: '2', WEBHOOK_CONCURRENCY: '2' },
    timeoutMs: 60_000,
  });
  const receiver = fileFixture(startWebhookReceiver, (r) => r.close());
  const db = () => stack.ts.testDb.db;
  return {
    stack,
    receiver,
    db,
    /** A finished job of the account (completed unless told), straight in the database. */
    finishedJob: (accountId: string, o?: FinishedJobOptions) => insertFinishedJob(db(), accountId, o),
    /** What the receiver got on one path, in order. */
    forPath: (path: string) => receiver.received.filter((r) => r.path === path),
  };
}
