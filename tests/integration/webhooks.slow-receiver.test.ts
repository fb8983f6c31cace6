// Outgoing webhooks under a hostile receiver (split from webhooks.delivery.test.ts, assertions unchanged):
//  - a receiver that drips one byte every second cannot hold a delivery past the total deadline
//    (WEBHOOK_TIMEOUT_MS), nor a bulk-job slot: another account's bulk job completes while
//    deliveries to it are stuck; the stuck attempts fail at the deadline, are logged and retried;
//  - an endless answer is read up to the cap, not to the deadline.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postWithDeadline } from '../../server/features/webhooks/webhook-delivery';
import { enqueueWebhook } from '../../server/features/webhooks/webhook-queue';
import { ownerOn } from '../helpers/accounts';
import { data, WEBHOOK_DEADLINE_MS as DEADLINE_MS, webhookDeliveryStack } from '../helpers/webhook-delivery-stack';

/**
 * Reads the request, then drips its answer — status line and headers included — one byte a second,
 * never finishing. Counts the connections it holds open right now.
 */
async function startDripReceiver() {
  const answer = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n' + 'x'.repeat(100_000));
  const sockets = new Set<net.Socket>();
  const closedAfterMs: number[] = [];
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    const opened = Date.now();
    let i = 0;
    const timer = setInterval(() => {
      if (i < answer.length && !socket.destroyed) socket.write(answer.subarray(i, ++i));
    }, 1000);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      closedAfterMs.push(Date.now() - opened);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => sockets.size,
    accepted: () => accepted,
    closedAfterMs,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** 200 and an answer that never ends, as fast as the socket takes it. */
async function startFloodReceiver() {
  const chunk = Buffer.alloc(16 * 1024, 'y');
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
const { stack, db, finishedJob } = webhookDeliveryStack();

describe('a slow receiver', () => {
  it('fails at the total deadline, is logged and retried, and never holds up another account’s bulk job', { timeout: 90_000 }, async () => {
    const drip = await startDripReceiver();
    try {
      // Four accounts whose receivers drip: more stuck deliveries than the worker has bulk slots (2).
      const dripping = await Promise.all([0, 1, 2, 3].map((i) => ownerOn(stack.ts, 'pro', `drip-${i}`)));
      const dripJobs: string[] = [];
      for (const p of dripping) {
        const jobId = await finishedJob(p.accountId, { webhookUrl: `${drip.url}/hook` });
        await enqueueWebhook(db(), { jobId });
        dripJobs.push(jobId);
      }
      await expect.poll(() => drip.open(), { timeout: 10_000, interval: 50 }).toBe(2); // the webhook runner's two slots, no more

      // Another account's bulk job over the real pipeline (probe daemon, SMTP world).
      const other = await ownerOn(stack.ts, 'pro', 'bulk-other');
      const key = data(await other.client.trpcMutation('apiKeys.create', { name: 'bulk' })).api_key as string;
      const res = await fetch(`${stack.ts.url}/v1/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ emails: ['alice@normal.mailworld.test', 'bob@normal.mailworld.test', 'ghost@normal.mailworld.test'] }),
      });
      expect(res.status).toBe(200);
      const { job_id } = (await res.json()) as { job_id: string };
      const status = async () => (await db().selectFrom('validation_job').select('status').where('id', '=', job_id).executeTakeFirstOrThrow()).status;
      await expect.poll(status, { timeout: 20_000, interval: 100 }).toBe('completed');
      // It completed while the drip receivers still held their deliveries.
      expect(drip.open()).toBeGreaterThan(0);

      // Every stuck attempt ends at the deadline: logged with its error and latency, left to retry.
      await expect
        .poll(async () => (await db().selectFrom('webhook_attempt').select('id').where('delivery_id', 'in', dripJobs).execute()).length, { timeout: 30_000, interval: 250 })
        .toBeGreaterThanOrEqual(dripJobs.length);
      const attempts = await db().selectFrom('webhook_attempt').selectAll().where('delivery_id', 'in', dripJobs).where('attempt', '=', 1).execute();
      expect(attempts).toHaveLength(dripJobs.length);
      for (const a of attempts) {
        expect(a.error).toBe(`no complete answer within ${DEADLINE_MS} ms`);
        expect(a.status_code).toBeNull();
        expect(a.latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      }
      // We hung up at the deadline, not before it. The receiver's clock starts at its accept, after ours
      // (the connect), which on a loaded machine takes more than a few milliseconds.
      for (const ms of drip.closedAfterMs) expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 500);
      const deliveries = await db().selectFrom('webhook_delivery').select(['status', 'last_error', 'attempts']).where('id', 'in', dripJobs).execute();
      for (const d of deliveries) {
        expect(d.status).toBe('pending');
        expect(d.last_error).toMatch(/no complete answer/);
      }
      const { rows } = await stack.ts.testDb.pool.query(`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'webhook-deliver' and key = any($1::text[]) and attempts >= 1`, [
        dripJobs.map((id) => `webhook-deliver:${id}`),
      ]);
      expect(rows[0].n).toBeGreaterThan(0); // waiting for their retry
      // The delivery log tells the owner.
      const log = data(await dripping[0]!.client.trpcQuery('webhooks.deliveries', {}));
      expect(log.items[0]).toMatchObject({ id: dripJobs[0], event: 'job.completed', status: 'pending', status_code: null, error: `no complete answer within ${DEADLINE_MS} ms` });
      expect(log.items[0].latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    } finally {
      await db().deleteFrom('webhook_delivery').where('url', 'like', `${drip.url}%`).execute();
      await drip.close();
    }
  });

  it('reads at most the cap of an endless answer and takes the status', { timeout: 20_000 }, async () => {
    const flood = await startFloodReceiver();
    try {
      const r = await postWithDeadline(new URL(`${flood.url}/hook`), '{}', { 'content-type': 'application/json' }, { allowPrivate: true, deadlineMs: DEADLINE_MS });
      expect(r.status).toBe(200);
    } finally {
      await flood.close();
    }
  });

  it('counts a slow answer as failed even when its status line came in time', { timeout: 20_000 }, async () => {
    const slow = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10' });
      const t = setInterval(() => res.write('x'), 1000);
      res.on('close', () => clearInterval(t));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const url = new URL(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`);
      await expect(postWithDeadline(url, '{}', {}, { allowPrivate: true, deadlineMs: 1500 })).rejects.toThrow('no complete answer within 1500 ms');
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });
});
