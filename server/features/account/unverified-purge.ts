// Sign-ups never verified are deleted after UNVERIFIED_SIGN_UP_DAYS (the daily unverified-purge cron).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { writeAudit } from '../audit/audit';

/**
 * How long a sign-up may wait for its address to be verified. Its verification link lives a day
 * (a sign-in with the right password sends a new one), so a week leaves the real sign-up time enough.
 * Past it the sign-up is deleted: one never verified may have been made by someone else with an
 * address that is not theirs and a password of their choosing; kept, it held the address for good, and
 * its owner signing up months later got "someone tried to sign up… choose a new password" instead of
 * their verification mail, and worked under the name the stranger typed. Once deleted, the owner's
 * sign-up is a sign-up like anyone's, and the stranger's name leaves our tables.
 */
export const UNVERIFIED_SIGN_UP_DAYS = 7;
const DAY_MS = 86_400_000;
/** Users deleted per run at most (the next day's run takes the rest). */
const BATCH = 500;

/**
 * Only a sign-up that never did anything goes: never verified, older than the period, no session, and
 * in no account but its own, which holds nobody else and nothing (no job, result, schedule, key,
 * payment, subscription, credit, brand or webhook; 0 credits, no subscription state). A sign-up cannot
 * sign in before it is verified, so this is every unverified one in practice; the rule keeps anything
 * else out whatever path a future change opens. The row is locked and checked again in the transaction
 * that deletes it, so a verification link or a password reset (which activates it) at that moment wins.
 */
const purgeable = (cutoff: Date) => sql<boolean>`
  u."emailVerified" = false
  and u."createdAt" < ${cutoff}
  and not exists (select 1 from "session" s where s."userId" = u.id)
  and not exists (
    select 1 from member m
    where m."userId" = u.id
      and (
        m.role <> 'owner'
        or exists (select 1 from member o where o."organizationId" = m."organizationId" and o."userId" <> u.id)
        or exists (select 1 from invitation i where i."organizationId" = m."organizationId")
        or exists (select 1 from account a where a.id = m."organizationId" and (a.credits_balance <> 0 or a.subscription_status <> 'none'))
        or exists (select 1 from validation_job x where x.account_id = m."organizationId")
        or exists (select 1 from validation_result x where x.account_id = m."organizationId")
        or exists (select 1 from schedule x where x.account_id = m."organizationId")
        or exists (select 1 from api_key x where x.account_id = m."organizationId")
        or exists (select 1 from payment_order x where x.account_id = m."organizationId")
        or exists (select 1 from payment x where x.account_id = m."organizationId")
        or exists (select 1 from subscription x where x.account_id = m."organizationId")
        or exists (select 1 from credit_grant x where x.account_id = m."organizationId")
        or exists (select 1 from account_branding x where x.account_id = m."organizationId")
        or exists (select 1 from webhook_endpoint x where x.account_id = m."organizationId")
        or exists (select 1 from webhook_delivery x where x.account_id = m."organizationId")
      )
  )`;

/** Deletes the sign-ups never verified within UNVERIFIED_SIGN_UP_DAYS of `now` (see above); returns how many. */
export async function purgeUnverifiedSignUps(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - UNVERIFIED_SIGN_UP_DAYS * DAY_MS);
  const candidates = await db.selectFrom('user as u').select('u.id').where(purgeable(cutoff)).orderBy('u.createdAt').limit(BATCH).execute();
  let deleted = 0;
  for (const { id } of candidates) {
    const gone = await db.transaction().execute(async (trx) => {
      const still = await trx.selectFrom('user as u').select('u.id').where('u.id', '=', id).where(purgeable(cutoff)).forUpdate().executeTakeFirst();
      if (!still) return false;
      const owned = await trx.selectFrom('member').select('organizationId').where('userId', '=', id).execute();
      // organization → account and what hangs from them; the user row → credentials, profile, membership.
      for (const o of owned) await trx.deleteFrom('organization').where('id', '=', o.organizationId).execute();
      await trx.deleteFrom('user').where('id', '=', id).execute();
      await writeAudit(trx, {
        accountId: null,
        actorUserId: null,
        action: 'user.purged_unverified',
        targetType: 'user',
        targetId: id,
        data: { days: UNVERIFIED_SIGN_UP_DAYS, deleted_accounts: owned.map((o) => o.organizationId) },
      });
      return true;
    });
    if (gone) deleted++;
  }
  return deleted;
}
