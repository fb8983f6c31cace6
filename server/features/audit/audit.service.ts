// The audit log as a person reads it: who did what, when, in words, with the facts recorded.
import type { Db } from '../../../db/client';
import { auditActionLabel, auditCategoryOf, type AuditCategory } from '../../contracts/audit';
import { auditActors, auditLogPage } from './audit.queries';

export interface AuditEntryView {
  id: string;
  at: string;
  actor: { kind: 'user' | 'operator' | 'system' | 'api_key'; user_id: string | null; email: string | null; name: string | null };
  action: string;
  label: string;
  category: AuditCategory | null;
  target: { type: string | null; id: string | null };
  /** The recorded facts, flattened to short strings (never secrets: none are written to the log). */
  details: Array<{ key: string; value: string }>;
}

function flatten(data: unknown): Array<{ key: string; value: string }> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const out: Array<{ key: string; value: string }> = [];
  for (const [key, v] of Object.entries(data as Record<string, unknown>)) {
    if (v === null || v === undefined || v === '') continue;
    const value = typeof v === 'string' ? v : JSON.stringify(v);
    out.push({ key, value: value.length > 200 ? `${value.slice(0, 199)}…` : value });
    if (out.length >= 8) break;
  }
  return out;
}

export async function readAuditLog(db: Db, accountId: string, o: { page: number; pageSize: number; category?: AuditCategory; actorUserId?: string }) {
  const { rows, total } = await auditLogPage(db, accountId, { offset: (o.page - 1) * o.pageSize, limit: o.pageSize, category: o.category, actorUserId: o.actorUserId });
  const items: AuditEntryView[] = rows.map((r) => ({
    id: r.id,
    at: r.created_at.toISOString(),
    actor: { kind: (['user', 'operator', 'system', 'api_key'].includes(r.actor) ? r.actor : 'system') as AuditEntryView['actor']['kind'], user_id: r.actor_user_id, email: r.actor_email, name: r.actor_name },
    action: r.action,
    label: auditActionLabel(r.action),
    category: auditCategoryOf(r.action),
    target: { type: r.target_type, id: r.target_id },
    details: flatten(r.data),
  }));
  return { items, total, page: o.page, pageSize: o.pageSize, pages: Math.max(1, Math.ceil(total / o.pageSize)), actors: await auditActors(db, accountId) };
}
