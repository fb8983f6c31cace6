// Jobs put straight into the database for tests of what happens after a job ends (webhooks).
import type { Db } from '../../db/client';

export interface FinishedJobOptions {
  webhookUrl?: string | null;
  status?: 'completed' | 'failed';
  scheduleId?: string;
  createdAt?: Date;
}

/** A finished /v1 (or, with scheduleId, schedule) job of three addresses; returns its id. */
export async function insertFinishedJob(db: Db, accountId: string, o: FinishedJobOptions = {}): Promise<string> {
  const job = await db
    .insertInto('validation_job')
    .values({
      account_id: accountId,
      filename: 'api-request',
      source: o.scheduleId ? 'schedule' : 'api',
      status: o.status ?? 'completed',
      total_emails: 3,
      processed_emails: 3,
      webhook_url: o.webhookUrl ?? null,
      schedule_id: o.scheduleId ?? null,
      completed_at: new Date(),
      ...(o.createdAt ? { created_at: o.createdAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return job.id;
}
