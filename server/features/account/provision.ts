// Every user gets one account at sign-up: the organization (better-auth's team model), the owner
// membership, the account row and the profile, in ONE transaction. The 500 free credits come with
// it once per person, when the address is verified (grantFreeCreditsOnVerification; a user who is
// provisioned already verified gets them at once): anyone can sign up someone else's address or a
// +tag spelling of it without owning the mailbox, and that must not spend its owner's grant.
// free_grant records every user ever provisioned and, per normalised email, the one grant it ever had. So a deleted account, a team left, a re-sign-up with the same mailbox
// (or a +tag/dotted spelling of it) or any request path can never produce a second grant, and a
// user who had an account is never silently given a fresh one.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { FREE_SIGNUP_CREDITS, planByType } from '../../contracts/plans';
import { writeAudit } from '../audit/audit';
import { grantCredits } from '../credits/credits';
import { mailboxDigest } from './email-key';

export type ProvisionOutcome =
  | { status: 'member'; accountId: string; role: string }
  | { status: 'created'; accountId: string; role: 'owner'; credits: number }
  /** The user had an account before (deleted since): nothing is created. */
  | { status: 'deleted' };

interface NewUser {
  id: string;
  name: string;
  email: string;
  /** Only a verified address earns the free credits (better-auth's user field). */
  emailVerified?: boolean;
}

/** Serialises grants to one email key (one mailbox however spelt; its digest) for the life of the transaction. */
async function lockEmailKey(trx: Db, emailKey: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`free_grant:${emailKey}`}, 0))`.execute(trx);
}

async function mailboxHadGrant(trx: Db, emailKey: string): Promise<boolean> {
  return (await trx.selectFrom('free_grant').select('user_id').where('email_key', '=', emailKey).where('granted_at', 'is not', null).executeTakeFirst()) !== undefined;
}

/**
 * Provisions the user's own account unless they have (or had) one. With `reopen`, a user whose
 * account was deleted gets a new, empty Free account (no credits) to start a paid plan from.
 */
export async function provisionAccount(db: Db, user: NewUser, o: { reopen?: boolean } = {}): Promise<ProvisionOutcome> {
  return db.transaction().execute(async (trx) => {
    // Serialise concurrent provisioning of the same user (sign-up hook racing a first request).
    await trx.selectFrom('user').select('id').where('id', '=', user.id).forUpdate().executeTakeFirst();
    const existing = await trx
      .selectFrom('member')
      .select(['organizationId', 'role'])
      .where('userId', '=', user.id)
      .orderBy('createdAt', 'asc')
      .executeTakeFirst();
    if (existing) return { status: 'member', accountId: existing.organizationId, role: existing.role };
    const before = await trx.selectFrom('free_grant').select(['user_id']).where('user_id', '=', user.id).executeTakeFirst();
    if (before && !o.reopen) return { status: 'deleted' };

    const emailKey = mailboxDigest(user.email);
    // One grant per email key, whoever asks at the same moment.
    await lockEmailKey(trx, emailKey);
    const verified = user.emailVerified === true;
    const granted = before
      ? true // a reopened account never gets the free credits again
      : await mailboxHadGrant(trx, emailKey);
    // Unverified: nothing yet; the credits come with the verification, if the mailbox never had them.
    const credits = granted || !verified ? 0 : FREE_SIGNUP_CREDITS;

    const free = planByType('free');
    const accountId = randomUUID();
    const now = new Date();
    const name = user.name.trim() ? `${user.name.trim().slice(0, 80)}'s account` : user.email;
    await trx.insertInto('organization').values({ id: accountId, name, slug: `acct-${accountId}`, logo: null, metadata: null, createdAt: now }).execute();
    await trx.insertInto('member').values({ id: randomUUID(), organizationId: accountId, userId: user.id, role: 'owner', createdAt: now }).execute();
    await trx
      .insertInto('account')
      .values({
        id: accountId,
        owner_id: user.id,
        plan: 'free',
        credits_balance: credits,
        monthly_validations_quota: free.monthlyValidations,
        team_member_limit: free.teamMemberLimit,
      })
      .execute();
    await trx
      .insertInto('profile')
      .values({ id: user.id, full_name: user.name.trim().slice(0, 200) })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    if (before) {
      await trx.updateTable('free_grant').set({ account_id: accountId }).where('user_id', '=', user.id).execute();
    } else {
      await trx
        .insertInto('free_grant')
        .values({ user_id: user.id, email_key: emailKey, account_id: accountId, credits, granted_at: credits > 0 ? now : null })
        .execute();
    }
    await writeAudit(trx, {
      accountId,
      actorUserId: user.id,
      action: before ? 'account.reopened' : 'account.created',
      targetType: 'account',
      targetId: accountId,
      data: { plan: 'free', credits, ...(granted ? { free_credits: 'already granted to this email' } : !verified ? { free_credits: 'granted when the email is verified' } : {}) },
    });
    return { status: 'created', accountId, role: 'owner', credits };
  });
}

/**
 * The user's address is verified (better-auth's beforeEmailVerification, so a failure here fails
 * the link, which can be followed again): the account provisioned at sign-up gets the free credits,
 * unless this mailbox (however spelt) already had them. Returns the credits granted.
 */
export async function grantFreeCreditsOnVerification(db: Db, user: { id: string; email: string }): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('user').select('id').where('id', '=', user.id).forUpdate().executeTakeFirst();
    const row = await trx.selectFrom('free_grant').select(['account_id', 'granted_at', 'email_key']).where('user_id', '=', user.id).executeTakeFirst();
    if (!row || row.granted_at || !row.account_id) return 0;
    const emailKey = mailboxDigest(user.email);
    await lockEmailKey(trx, emailKey);
    if (await mailboxHadGrant(trx, emailKey)) return 0;
    // Only the user's own sign-up account (never an account they merely belong to).
    const own = await trx.selectFrom('account').select('id').where('id', '=', row.account_id).where('owner_id', '=', user.id).executeTakeFirst();
    if (!own) return 0;
    const credits = FREE_SIGNUP_CREDITS;
    await grantCredits(trx, own.id, credits);
    await trx.updateTable('free_grant').set({ email_key: emailKey, credits, granted_at: new Date() }).where('user_id', '=', user.id).execute();
    await writeAudit(trx, { accountId: own.id, actorUserId: user.id, action: 'account.free_credits_granted', targetType: 'account', targetId: own.id, data: { credits } });
    return credits;
  });
}

/**
 * A new password was chosen through a reset link, which only the mailbox receives: that proves the
 * address as a verification link does. An account never activated (perhaps signed up by someone else,
 * with their password: the "someone tried to sign up" notice tells its owner to reset it) becomes
 * active with its free credits, so the new password signs in at once. The custom domain it was signed
 * up through no longer brands its mails: that sign-up was not necessarily its owner's, and a tenant
 * must not receive the owner's reset links on a domain it controls.
 */
export async function activateOnPasswordReset(db: Db, user: { id: string; email: string; emailVerified: boolean }): Promise<void> {
  if (user.emailVerified) return;
  const activated = await db
    .updateTable('user')
    .set({ emailVerified: true, signupBrandAccountId: null, updatedAt: new Date() })
    .where('id', '=', user.id)
    .where('emailVerified', '=', false)
    .returning('id')
    .executeTakeFirst();
  if (activated) await grantFreeCreditsOnVerification(db, user);
}
