// Group commit for single checks whose verdict is known before anything is written (the syntax
// check decided it): checks of one account that arrive while that account's previous write is in
// flight wait for it and then go together in ONE statement (../credits/decided-checks.ts
// chargeAndStoreDecided: one round trip, one commit, per-check outcomes in arrival order). At low load
// a batch is one check and nothing waits; under load a batch is every check that queued meanwhile, so
// Postgres commits once per batch instead of once per check. Each caller's promise settles only
// after the statement that wrote its check committed; a failed statement fails every check in it,
// and it wrote nothing (one statement is atomic), so no credit is ever taken without its result.
import type { Db } from '../../../db/client';
import { getOrCreate } from '../../lib/get-or-create';
import { chargeAndStoreDecided, type DecidedCheck, type DecidedCheckOutcome } from '../credits/decided-checks';

/** Most checks one statement carries (the rest wait for the next one). */
export const MAX_STORE_BATCH = 256;

interface Waiting {
  check: DecidedCheck;
  resolve(o: DecidedCheckOutcome): void;
  reject(err: unknown): void;
}

interface AccountQueue {
  waiting: Waiting[];
  busy: boolean;
}

const queues = new WeakMap<Db, Map<string, AccountQueue>>();

/** Charges and stores one decided check, batched with the account's other checks in flight. */
export function storeDecidedCheck(db: Db, accountId: string, check: DecidedCheck): Promise<DecidedCheckOutcome> {
  const perDb = getOrCreate(queues, db, () => new Map<string, AccountQueue>());
  const queue = getOrCreate(perDb, accountId, (): AccountQueue => ({ waiting: [], busy: false }));
  const done = new Promise<DecidedCheckOutcome>((resolve, reject) => queue.waiting.push({ check, resolve, reject }));
  if (!queue.busy) void flush(db, perDb, accountId, queue);
  return done;
}

async function flush(db: Db, perDb: Map<string, AccountQueue>, accountId: string, q: AccountQueue): Promise<void> {
  q.busy = true;
  while (q.waiting.length > 0) {
    const batch = q.waiting.splice(0, MAX_STORE_BATCH);
    try {
      const outcomes = await chargeAndStoreDecided(
        db,
        accountId,
        batch.map((w) => w.check),
      );
      batch.forEach((w, i) => w.resolve(outcomes[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
  q.busy = false;
  perDb.delete(accountId);
}
