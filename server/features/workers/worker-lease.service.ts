// Worker leases (crash recovery of graphile-worker, see server/worker/runner.ts): each runner records
// the worker ids it owns under its connection's application_name and beats a heartbeat on them, so a
// lock held by a process whose connections are gone and whose heartbeat stopped can be released
// within seconds instead of after graphile's 4 hours.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';

/** Locks older than this, held by worker ids with no live connection, are released. */
const LOCK_GRACE_SECONDS = 3;

/**
 * A runner whose last heartbeat (touchInstanceLeases, every few seconds) is more recent than this
 * is alive even when none of its connections is seen: they were cut for a moment (a failover, a
 * pooler closing idle ones; behind a transaction pooler idle connections are not seen at all). Its
 * chunks were released and run a second time beside the first. A killed runner's jobs wait this long.
 */
export const LEASE_TTL_SECONDS = 10;

/** A job released from a dead worker gets its cut-short attempt back only below this many attempts (every task's max_attempts is lower). */
export const CRASH_ATTEMPTS_CEILING = 30;

/** Records that worker (or worker pool) `workerId` belongs to the runner `instance`. */
export async function recordWorkerLease(db: Db, workerId: string, instance: string): Promise<void> {
  await db
    .insertInto('worker_lease')
    .values({ worker_id: workerId, instance })
    .onConflict((oc) => oc.column('worker_id').doNothing())
    .execute();
}

/** The runner `instance` is alive: its heartbeat, on every sweep. */
export async function touchInstanceLeases(db: Db, instance: string): Promise<void> {
  await db.updateTable('worker_lease').set({ seen_at: sql<Date>`now()` }).where('instance', '=', instance).execute();
}

/** Forgets the leases of a runner that stops cleanly. */
export async function dropInstanceLeases(db: Db, instance: string): Promise<void> {
  await db.deleteFrom('worker_lease').where('instance', '=', instance).execute();
}

/** Frees jobs locked by workers whose process has no connection left; returns their ids. */
export async function releaseDeadWorkers(db: Db): Promise<string[]> {
  const r = await sql<{ worker_id: string }>`
    select distinct j.locked_by as worker_id
    from graphile_worker._private_jobs j
    where j.locked_by is not null
      and j.locked_at < now() - make_interval(secs => ${LOCK_GRACE_SECONDS})
      and not exists (
        select 1 from worker_lease l
        join pg_stat_activity a on a.application_name = l.instance
        where l.worker_id = j.locked_by
      )
      and not exists (
        select 1 from worker_lease l
        where l.worker_id = j.locked_by and l.seen_at > now() - make_interval(secs => ${LEASE_TTL_SECONDS})
      )`.execute(db);
  const dead = r.rows.map((x) => x.worker_id);
  if (dead.length > 0) {
    // graphile-worker counts an attempt when it hands the job out, so a job whose last allowed
    // attempt was cut short by the crash would be released as exhausted and never run again: a bulk
    // job stuck in processing forever, a webhook delivery pending forever. That attempt never ended,
    // so it is given back (up to CRASH_ATTEMPTS_CEILING, so a task that kills its process every
    // time cannot crash-loop the workers without end).
    await sql`
      update graphile_worker._private_jobs set max_attempts = attempts + 1
      where locked_by = any(${dead}::text[]) and attempts >= max_attempts and attempts < ${CRASH_ATTEMPTS_CEILING}`.execute(db);
    await sql`select graphile_worker.force_unlock_workers(${dead}::text[])`.execute(db);
    console.warn(`[worker] released jobs of ${dead.length} dead worker(s): ${dead.join(', ')}`);
  }
  // Forget leases of instances that are gone.
  await sql`
    delete from worker_lease l
    where l.created_at < now() - interval '1 minute'
      and l.seen_at < now() - interval '1 minute'
      and not exists (select 1 from pg_stat_activity a where a.application_name = l.instance)`.execute(db);
  return dead;
}
