// A user leaving an account: the schedules they created there stop running in their name.
import type { Db } from '../../../db/client';
import { writeAudit } from '../audit/audit';

/**
 * A user leaving an account (removed, left, or deleting their user: `accountId` unset, every account
 * they still belong to) takes no part in it any more: the active schedules they created there are
 * paused, not left spending the account's credits in their name, and keep their lists. The Schedules
 * list says why (paused_reason); an owner or admin who switches one back on keeps it running as the
 * account's (runSchedule names nobody who left). Returns how many were paused.
 */
export async function pauseSchedulesOfLeavingUser(
  trx: Db,
  o: { accountId?: string; userId: string; actorUserId: string | null; reason: 'member_removed' | 'member_left' | 'user_deleted' },
): Promise<number> {
  let q = trx.updateTable('schedule').set({ is_active: false, paused_reason: 'creator_left' }).where('created_by', '=', o.userId).where('is_active', '=', true);
  if (o.accountId) q = q.where('account_id', '=', o.accountId);
  const paused = await q.returning(['id', 'account_id', 'name']).execute();
  for (const s of paused) {
    await writeAudit(trx, {
      accountId: s.account_id,
      actorUserId: o.actorUserId,
      action: 'schedule.deactivated',
      targetType: 'schedule',
      targetId: s.id,
      data: { name: s.name, reason: o.reason, created_by: o.userId },
    });
  }
  return paused.length;
}
