// Credits are money: taken atomically, never below zero (the check constraint is the last line of
// defence; the conditional update is the first). Each taken credit also counts toward this
// month's usage. Always call inside the transaction that writes what the credits pay for.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types';

/** Takes n credits if the balance covers them; returns false (and changes nothing) otherwise. */
export async function takeCredits(trx: Kysely<Database>, accountId: string, n: number): Promise<boolean> {
  if (n <= 0) return true;
  const row = await trx
    .updateTable('account')
    .set({
      credits_balance: sql`credits_balance - ${n}`,
      monthly_validations_used: sql`monthly_validations_used + ${n}`,
      updated_at: new Date(),
    })
    .where('id', '=', accountId)
    .where('credits_balance', '>=', n)
    .returning('credits_balance')
    .executeTakeFirst();
  return row !== undefined;
}

export async function creditsBalance(db: Kysely<Database>, accountId: string): Promise<number> {
  const row = await db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow();
  return row.credits_balance;
}
