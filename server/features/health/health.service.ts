// What GET /healthz reports: whether this process can reach its database (a balancer or
// orchestrator then stops sending traffic to a web process that could only answer 500s).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';

/** True when the database answers `select 1` within `timeoutMs` (a pool with no free connection waits, then fails). */
export async function databaseAnswers(db: Db, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => true as const), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
