import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { wellFormedJson } from '../../lib/well-formed';

export interface AuditEntry {
  accountId: string | null;
  actorUserId?: string | null;
  actor?: 'user' | 'operator' | 'system' | 'api_key';
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Record<string, unknown>;
}

/** Appends to the audit log; pass the transaction so the entry commits with the change it records. */
export async function writeAudit(db: Kysely<Database>, e: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      account_id: e.accountId,
      actor_user_id: e.actorUserId ?? null,
      // No person behind it (a Razorpay webhook, a cron): the system did it.
      actor: e.actor ?? (e.actorUserId ? 'user' : 'system'),
      action: e.action,
      target_type: e.targetType ?? null,
      target_id: e.targetId ?? null,
      // Well-formed: a lone surrogate in a name or id the caller sent made jsonb refuse the entry (a 500).
      data: wellFormedJson(e.data ?? {}),
    })
    .execute();
}
