// Fair sharing of the workers between accounts. graphile-worker runs the lowest priority first,
// then the oldest: when every chunk of a job was queued at its creation, a 100,000-address upload
// (200 chunks) ran before anything another account queued after it, its small job and its
// schedule's run included, for as long as the big job took.
//
// So an account has at most ACCOUNT_CHUNK_WINDOW chunk tasks in graphile-worker's queue (waiting or
// running) at a time; the rest of its chunks wait in validation_job_chunk. Each chunk that completes
// queues the account's next one, at the tail of the queue: behind whatever other accounts queued
// meanwhile. Accounts thus take turns chunk by chunk, and another account's new job starts after at
// most ACCOUNT_CHUNK_WINDOW chunks of each account already busy (one when they fill the slots), while
// a job alone still has the window's slots to itself. (A named graphile-worker queue per account
// would serialise the account's chunks: one slot for a big job however idle the workers.)
// Within an account, its unfinished jobs share the window evenly (the job with the fewest chunks in
// flight goes next, the older on a tie): a small job the account starts while its big one runs is
// not held behind it, nor does the big one stop while the new one runs.
//
// The window is counted and filled under a per-account advisory lock, in the transaction that
// creates the job, completes a chunk, fails or cancels a job: what is queued commits with it, so a
// crash never loses a chunk nor queues one twice (the task keys, bulk-validate-chunk:<job>:<n>, are
// unique). A sweep (cron bulk-dispatch) refills any account left below its window.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { TASKS } from '../../lib/tasks';

/** Chunk tasks one account may have queued or running at once by default (the default WORKER_CONCURRENCY). */
export const ACCOUNT_CHUNK_WINDOW = 4;

let accountChunkWindow = ACCOUNT_CHUNK_WINDOW;

/**
 * BULK_CHUNKS_PER_ACCOUNT, set at start (boot.ts). With several worker processes, their total
 * WORKER_CONCURRENCY lets one account's job use every slot while it is alone; another account's
 * job then waits for at most that many chunks.
 */
export function setAccountChunkWindow(n: number): void {
  accountChunkWindow = n;
}

/** graphile-worker attempts of a chunk task (about four days of its backoff). */
export const CHUNK_MAX_ATTEMPTS = 25;

/** First key of the two-key advisory lock that serialises one account's dispatches. */
const DISPATCH_LOCK = 0x6d76_6331; // 'mvc1'

export function chunkTaskKey(jobId: string, chunkNo: number): string {
  return `${TASKS.bulkValidateChunk}:${jobId}:${chunkNo}`;
}

/**
 * Queues the account's next chunks until it has `window` chunk tasks queued or running; call it in
 * the transaction that changes what the account has in flight. Returns how many were queued.
 */
export async function dispatchChunks(trx: Db, accountId: string, window = accountChunkWindow): Promise<number> {
  await sql`select pg_advisory_xact_lock(${DISPATCH_LOCK}::int, hashtext(${accountId}::text))`.execute(trx);
  const r = await sql<{ job_id: string; chunk_no: number }>`
    with open as (
      select c.job_id, c.chunk_no, j.created_at,
             exists (select 1 from graphile_worker._private_jobs q
                     where q.key = ${TASKS.bulkValidateChunk}::text || ':' || c.job_id::text || ':' || c.chunk_no) as queued
        from validation_job j
        join validation_job_chunk c on c.job_id = j.id and c.completed_at is null
       where j.account_id = ${accountId} and j.status in ('pending', 'processing')
    )
    , flying as (select job_id, count(*) filter (where queued) as n from open group by job_id)
    select w.job_id, w.chunk_no from (
      select job_id, chunk_no, created_at, row_number() over (partition by job_id order by chunk_no) as turn from open where not queued
    ) w join flying f on f.job_id = w.job_id
     order by f.n + w.turn, w.created_at, w.job_id
     limit greatest(0, ${window}::int - (select count(*) from open where queued)::int)`.execute(trx);
  if (r.rows.length === 0) return 0;
  await sql`
    select graphile_worker.add_job(
      ${TASKS.bulkValidateChunk}::text,
      json_build_object('jobId', t.job_id::text, 'chunkNo', t.chunk_no),
      job_key := ${TASKS.bulkValidateChunk}::text || ':' || t.job_id::text || ':' || t.chunk_no,
      run_at := clock_timestamp(),
      max_attempts := ${CHUNK_MAX_ATTEMPTS}::int
    ) from unnest(${r.rows.map((x) => x.job_id)}::uuid[], ${r.rows.map((x) => x.chunk_no)}::int[]) as t(job_id, chunk_no)`.execute(trx);
  return r.rows.length;
}

/** dispatchChunks for the account of `jobId` (after its job failed or was cancelled). */
export async function dispatchForJob(trx: Db, jobId: string): Promise<number> {
  const job = await trx.selectFrom('validation_job').select('account_id').where('id', '=', jobId).executeTakeFirst();
  return job ? dispatchChunks(trx, job.account_id) : 0;
}

/**
 * The sweep: every account with unfinished jobs whose window is not full gets its next chunks
 * (should a path that ends a chunk ever not refill it). Returns how many chunks were queued.
 */
export async function dispatchAllAccounts(db: Db): Promise<number> {
  const accounts = await db.selectFrom('validation_job').select('account_id').distinct().where('status', 'in', ['pending', 'processing']).execute();
  let queued = 0;
  for (const a of accounts) queued += await db.transaction().execute((trx) => dispatchChunks(trx, a.account_id));
  return queued;
}
