// The key under which free credits are granted once per person: one mailbox, however it is spelt.
// Lower-cased; the "+tag" of the local part dropped (sub-addressing reaches the same mailbox at
// nearly every provider); Gmail's dots dropped and googlemail.com folded into gmail.com.
// db/migrations/2026_11_23_20_00_00_create_free_grant.ts applies the same rules in SQL to backfill.
import { createHash } from 'node:crypto';

const GMAIL = new Set(['gmail.com', 'googlemail.com']);

export function freeGrantEmailKey(email: string): string {
  const e = email.trim().toLowerCase();
  const at = e.lastIndexOf('@');
  if (at <= 0) return e;
  let local = e.slice(0, at);
  let domain = e.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * What is stored for a mailbox (free_grant.email_key, auth_mail_throttle.mailbox): the SHA-256 of its
 * key, never the address. free_grant outlives a deleted account (free credits once per person), and
 * the Privacy page promises the address goes with the account: a one-way digest still recognises the
 * mailbox when it signs up again, without keeping it. Unkeyed on purpose: a keyed digest would forget
 * every grant when the server secret is rotated.
 */
export function mailboxDigest(emailOrKey: string): string {
  return sha256Hex(freeGrantEmailKey(emailOrKey));
}

/** The digest of one address as typed (lower case): its own user, not its mailbox (sign-in attempts). */
export function addressDigest(email: string): string {
  return sha256Hex(email.trim().toLowerCase());
}
