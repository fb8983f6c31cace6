// The browser's IANA time zone, as the pages send it to count validations per calendar day.
// Checked twice: the runtime's ICU must know it (its canonical name is used: 'US/Pacific-New' →
// 'America/Los_Angeles'), and so must PostgreSQL, which does the grouping (`at time zone`).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';

/** The canonical name of an IANA zone the runtime knows ('Asia/Calcutta'), or null. */
export function canonicalTimeZone(tz: string | undefined): string | null {
  if (!tz || tz.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

// Bounded: only names ICU already accepted reach it (a few hundred at most).
const knownToPostgres = new Map<string, boolean>();

/** The zone's canonical name if both the runtime and PostgreSQL know it, else null. */
export async function resolveTimeZone(db: Db, tz: string | undefined): Promise<string | null> {
  const name = canonicalTimeZone(tz);
  if (!name) return null;
  let known = knownToPostgres.get(name);
  if (known === undefined) {
    const r = await sql<{ ok: boolean }>`select exists (select 1 from pg_timezone_names where name = ${name}) as ok`.execute(db);
    known = r.rows[0]?.ok === true;
    knownToPostgres.set(name, known);
  }
  return known ? name : null;
}

/** Today's calendar day in `tz` ('2026-11-25'). */
export function todayIn(tz: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
