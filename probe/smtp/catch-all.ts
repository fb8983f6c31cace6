// Catch-all detection: one recipient per domain that cannot exist. If the server accepts it too,
// an "accepted" for a real address proves nothing (risky, catch_all).
import { randomBytes } from 'node:crypto';

const CONSONANTS = 'bcdfghjklmnprstvz';
const VOWELS = 'aeiou';

/**
 * A random local part no person owns that looks like one a person could: ten lower-case letters,
 * consonant then vowel (85^5, about 4.4e9 of them). Some catch-alls still refuse machine-made
 * shapes (long strings, runs of digits) while they accept every name: a random mailbox of that
 * shape would be refused there and make the domain look like one that tells real from made-up.
 */
export function randomLocalPart(): string {
  const bytes = randomBytes(10);
  let local = '';
  for (let i = 0; i < bytes.length; i++) {
    const alphabet = i % 2 === 0 ? CONSONANTS : VOWELS;
    local += alphabet[(bytes[i] ?? 0) % alphabet.length];
  }
  return local;
}

/** true: random mailbox accepted; false: refused as unknown/disabled; null: not determined. */
export function catchAllFromFinding(finding: string): boolean | null {
  if (finding === 'accepted') return true;
  if (finding === 'mailbox_not_found' || finding === 'mailbox_disabled') return false;
  return null;
}
