// API key management for an account: create (key returned once), list, revoke. Transport-free:
// the tRPC router and any operator tooling call these with an explicit db and account.
import type { Db } from '../../../db/client';
import type { ApiKey, CreatedApiKey } from '../../contracts/api-keys';
import { AppError } from '../../lib/app-error';
import { writeAudit } from '../audit/audit';
import { generateApiKey } from './api-key-format';
import { countActiveApiKeys, insertApiKey, listApiKeys as listKeys, revokeApiKey as revokeKey } from './api-keys.queries';

/** Active keys an account may hold at once (revoked keys do not count). */
export const MAX_ACTIVE_API_KEYS = 50;

export async function createApiKey(db: Db, o: { accountId: string; userId: string | null; name: string }): Promise<CreatedApiKey> {
  return db.transaction().execute(async (trx) => {
    // Serialise concurrent creates per account so the active-key cap holds.
    await trx.selectFrom('account').select('id').where('id', '=', o.accountId).forUpdate().executeTakeFirstOrThrow();
    if ((await countActiveApiKeys(trx, o.accountId)) >= MAX_ACTIVE_API_KEYS) {
      throw new AppError('CONFLICT', `You can have at most ${MAX_ACTIVE_API_KEYS} active API keys. Revoke one you no longer use.`);
    }
    const material = generateApiKey();
    const key = await insertApiKey(trx, { accountId: o.accountId, userId: o.userId, name: o.name, prefix: material.prefix, hash: material.hash });
    await writeAudit(trx, {
      accountId: o.accountId,
      actorUserId: o.userId,
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: key.id,
      data: { name: key.name, key_prefix: key.key_prefix },
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
