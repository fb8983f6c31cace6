// Catch-all detection: one recipient per domain that cannot exist. If the server accepts it too,
// an "accepted" for a real address proves nothing (risky, catch_all).
import { randomBytes } from 'node:crypto';

/** A random local part no person would own (letters and digits only, 20 characters). */
export function randomLocalPart(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(19);
  return `x${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

/** true: random mailbox accepted; false: refused as unknown/disabled; null: not determined. */
export function catchAllFromFinding(finding: string): boolean | null {
  if (finding === 'accepted') return true;
  if (finding === 'mailbox_not_found' || finding === 'mailbox_disabled') return false;
  return null;
}
