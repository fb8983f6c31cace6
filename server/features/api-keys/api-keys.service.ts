// API key management for an account: create (key returned once), list, revoke. Transport-free:
// the tRPC router and any operator tooling call these with an explicit db and account.
import type { Db } from '../../../db/client';
import { API_SCOPES, type ApiKey, type ApiScope, type CreatedApiKey } from '../../contracts/api-keys';
import { can, PERMISSION_DENIED_MESSAGES } from '../../contracts/permissions';
import type { PlanType } from '../../contracts/plans';
import { ratePerSecond } from '../../rest/rate-limit';
import { customApiRate } from '../billing/service-state';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { creditsBalance } from '../credits/credits';
import { parseSingleEmail } from '../validation/validation.service';
import { generateApiKey } from './api-key-format';
import { memberRole } from '../account/membership';
import { countActiveApiKeys, findAccountApiKey, insertApiKey, listApiKeys as listKeys, revokeApiKey as revokeKey, revokeKeysCreatedBy } from './api-keys.queries';
import { sandboxResult } from './sandbox';

/** Active keys an account may hold at once (revoked keys do not count). */
export const MAX_ACTIVE_API_KEYS = 50;

export interface NewApiKeyOptions {
  accountId: string;
  userId: string | null;
  plan: PlanType;
  name: string;
  /** Default: every scope. */
  scopes?: ApiScope[];
  /** A sandbox key (mv_test_…). */
  test?: boolean;
  /** At most the plan's rate (Enterprise: the account's contracted rate); null/undefined = the plan's. */
  ratePerSecond?: number | null;
}

/** The message for a per-key rate above what the plan allows. */
export function keyRateAbovePlanMessage(planRate: number): string {
  return `A key's rate limit can be at most your plan's rate of ${planRate} request${planRate === 1 ? '' : 's'} per second.`;
}

export async function createApiKey(db: Db, o: NewApiKeyOptions): Promise<CreatedApiKey> {
  const scopes = o.scopes ? API_SCOPES.filter((s) => o.scopes!.includes(s)) : [...API_SCOPES];
  if (scopes.length === 0) throw new AppError('BAD_INPUT', 'Choose at least one scope.');
  const keyRate = o.ratePerSecond ?? null;
  if (keyRate !== null) {
    if (!Number.isInteger(keyRate) || keyRate < 1) throw new AppError('BAD_INPUT', 'The rate limit must be a whole number of requests per second, at least 1.');
    const planRate = ratePerSecond(o.plan, o.plan === 'enterprise' ? await customApiRate(db, o.accountId) : null);
    if (keyRate > planRate) throw new AppError('BAD_INPUT', keyRateAbovePlanMessage(planRate), { details: { plan_rate_per_second: planRate } });
  }
  return db.transaction().execute(async (trx) => {
    // Serialise concurrent creates per account so the active-key cap holds.
    await trx.selectFrom('account').select('id').where('id', '=', o.accountId).forUpdate().executeTakeFirstOrThrow();
    // Still allowed under that lock: a removal (which takes it too) may have committed since the
    // caller was admitted, and a key made after it would outlive the revocation of their keys.
    if (o.userId !== null && !can(await memberRole(trx, o.accountId, o.userId), 'apiKeys.manage')) {
      throw new AppError('PERMISSION_DENIED', PERMISSION_DENIED_MESSAGES['apiKeys.manage']!);
    }
    if ((await countActiveApiKeys(trx, o.accountId)) >= MAX_ACTIVE_API_KEYS) {
      throw new AppError('CONFLICT', `You can have at most ${MAX_ACTIVE_API_KEYS} active API keys. Revoke one you no longer use.`);
    }
    const material = generateApiKey({ test: o.test === true });
    const key = await insertApiKey(trx, {
      accountId: o.accountId,
      userId: o.userId,
      name: o.name,
      prefix: material.prefix,
      hash: material.hash,
      isTest: o.test === true,
      scopes,
      ratePerSecond: keyRate,
    });
    await writeAudit(trx, {
      accountId: o.accountId,
      actorUserId: o.userId,
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: key.id,
      data: { name: key.name, key_prefix: key.key_prefix, test: key.is_test, scopes: key.scopes, rate_limit_per_second: key.rate_limit_per_second },
    });
    return { ...key, api_key: material.key };
  });
}

export function listApiKeys(db: Db, accountId: string): Promise<ApiKey[]> {
  return listKeys(db, accountId);
}

/** Irreversible. Revoking an already revoked key changes nothing and succeeds. */
export async function revokeApiKey(db: Db, o: { accountId: string; userId: string | null; id: string }): Promise<ApiKey> {
  return db.transaction().execute(async (trx) => {
    const res = await revokeKey(trx, o.accountId, o.id);
    if (!res) throw new AppError('NOT_FOUND', 'API key not found.');
    if (res.changed) {
      await writeAudit(trx, {
        accountId: o.accountId,
        actorUserId: o.userId,
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: res.key.id,
        data: { name: res.key.name, key_prefix: res.key.key_prefix },
      });
    }
    return res.key;
  });
}

/**
 * A person leaves an account (removed from the team, or their user deleted): the keys they created
 * there stop working. The full key was shown once, to them only, so a key they made is a key they
 * can still hold; the account keeps the keys other people made. Each revocation is audited. Call
 * inside the transaction that ends the membership; without `accountId`, every account's.
 */
export async function revokeKeysOfLeavingUser(
  trx: Db,
  o: { userId: string; accountId?: string; actorUserId: string | null; reason: 'member_removed' | 'member_left' | 'user_deleted' },
): Promise<number> {
  const revoked = await revokeKeysCreatedBy(trx, { createdBy: o.userId, accountId: o.accountId });
  for (const k of revoked) {
    await writeAudit(trx, {
      accountId: k.account_id,
      actorUserId: o.actorUserId,
      action: 'api_key.revoked',
      targetType: 'api_key',
      targetId: k.id,
      data: { name: k.name, key_prefix: k.key_prefix, reason: o.reason, created_by: o.userId },
    });
  }
  return revoked.length;
}

/** A test key's single check: the sandbox's answer, after the same input checks as a live one. Free. */
export function checkSandboxEmail(raw: string) {
  const email = parseSingleEmail(raw);
  return { ...sandboxResult(email), charged: false };
}

/** GET /v1/account: the plan, the balance and the calling key. */
export async function apiAccountSummary(db: Db, o: { accountId: string; keyId: string; plan: PlanType }) {
  const key = await findAccountApiKey(db, o.accountId, o.keyId);
  if (!key) throw new AppError('NOT_FOUND', 'API key not found.');
  const planRate = ratePerSecond(o.plan, o.plan === 'enterprise' ? await customApiRate(db, o.accountId) : null);
  return {
    plan: o.plan,
    credits_balance: await creditsBalance(db, o.accountId),
    rate_limit_per_second: key.rate_limit_per_second === null ? planRate : Math.min(planRate, key.rate_limit_per_second),
    key: { id: key.id, name: key.name, key_prefix: key.key_prefix, test: key.is_test, scopes: key.scopes },
  };
}
