// Reading an account's audit log (owners and admins; the router enforces the role). Always scoped
// to the caller's account; filters by category (action prefixes) and actor; newest first.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { AUDIT_CATEGORIES, type AuditCategory } from '../../contracts/audit';

export interface AuditRow {
  id: string;
  created_at: Date;
  actor: string;
  actor_user_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  data: unknown;
}

export async function auditLogPage(
  db: Kysely<Database>,
  accountId: string,
  o: { offset: number; limit: number; category?: AuditCategory; actorUserId?: string },
): Promise<{ rows: AuditRow[]; total: number }> {
  let q = db.selectFrom('audit_log').where('audit_log.account_id', '=', accountId);
  if (o.category) {
    const prefixes = AUDIT_CATEGORIES[o.category].prefixes;
    q = q.where((eb) => eb.or(prefixes.map((p) => eb('audit_log.action', 'like', `${p.replace(/[%_\\]/g, '\\$&')}%`))));
  }
  if (o.actorUserId) q = q.where('audit_log.actor_user_id', '=', o.actorUserId);
  const [rows, count] = await Promise.all([
    q
      .leftJoin('user', 'user.id', 'audit_log.actor_user_id')
      .select(['audit_log.id', 'audit_log.created_at', 'audit_log.actor', 'audit_log.actor_user_id', 'user.email as actor_email', 'user.name as actor_name', 'audit_log.action', 'audit_log.target_type', 'audit_log.target_id', 'audit_log.data'])
      .orderBy('audit_log.created_at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .offset(o.offset)
      .limit(o.limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, id: String(r.id) })), total: Number(count.n) };
}

/** Who appears as an actor in this account's log (for the actor filter). */
export async function auditActors(db: Kysely<Database>, accountId: string): Promise<Array<{ user_id: string; email: string | null; name: string | null }>> {
  return db
    .selectFrom('audit_log')
    .leftJoin('user', 'user.id', 'audit_log.actor_user_id')
    .select(['audit_log.actor_user_id as user_id', 'user.email', 'user.name'])
    .where('audit_log.account_id', '=', accountId)
    .where('audit_log.actor_user_id', 'is not', null)
    .groupBy(['audit_log.actor_user_id', 'user.email', 'user.name'])
    .orderBy('user.email')
    .execute()
    .then((rows) => rows.map((r) => ({ user_id: r.user_id!, email: r.email, name: r.name })));
}
