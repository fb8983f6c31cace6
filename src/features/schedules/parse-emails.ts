import { splitEmailLines } from '../../../server/contracts/schedules';

function looksLikeEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s);
}

/** Typed addresses: one per line, trimmed, blanks dropped (spec section 5), then deduplicated. */
export function emailsFromText(text: string): string[] {
  return uniqueEmails(splitEmailLines(text));
}

function uniqueEmails(candidates: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of candidates) {
    const email = raw.trim();
    if (email === '') continue;
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(email);
  }
  return out;
}

/** Splits a list into addresses that look like addresses and the rest. */
export function partitionEmails(list: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const e of list) (looksLikeEmail(e) ? valid : invalid).push(e);
  return { valid, invalid };
}
