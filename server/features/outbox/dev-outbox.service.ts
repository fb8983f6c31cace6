// The dev outbox: where the mailer puts outgoing mail while no SMTP relay is configured (shown at
// /dev/outbox outside production, see server/http/dev-outbox.ts).
import type { Db } from '../../../db/client';

export async function storeDevMail(db: Db, m: { to: string; subject: string; text: string; html?: string | null }): Promise<void> {
  await db.insertInto('dev_outbox').values({ to: m.to, subject: m.subject, text: m.text, html: m.html ?? null }).execute();
}

/** The newest 100 mails of the dev outbox (the /dev/outbox page). */
export async function recentDevMail(db: Db) {
  return db.selectFrom('dev_outbox').selectAll().orderBy('id', 'desc').limit(100).execute();
}
