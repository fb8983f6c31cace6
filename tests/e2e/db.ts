// The e2e server's database (serve.ts writes its URL), for the few arrangements no screen can make.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function withE2eDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const port = Number(process.env.E2E_PORT ?? 3111);
  const url = fs.readFileSync(path.join(os.tmpdir(), `mailvet-e2e-${port}.dburl`), 'utf8').trim();
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Queues one of the worker's cron tasks now (graphile-worker's own add_job), so that a spec need
 * not wait up to a minute for the cron's next tick; the worker runs it like the cron's.
 */
export async function runCronTaskNow(task: 'schedule-tick'): Promise<void> {
  await withE2eDb((client) => client.query("select graphile_worker.add_job($1, '{}'::json)", [task]));
}
