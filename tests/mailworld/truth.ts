// Ground truth: what a correct verifier must answer for an address of a DomainSpec, following
// DESIGN.md's verdict table (in order). It assumes the verifier's timeouts exceed any tarpit
// delay, and its greylisting deadline exceeds any finite greylistMs (greylistMs: Infinity is the
// "never cleared" case).
import type { DomainSpec, MailboxState, MxSpec, ServerSpec, Truth } from './types';

// Role local parts the scenarios use (a flag only, never a verdict).
const ROLE_LOCALS = new Set([
  'info', 'admin', 'support', 'sales', 'contact', 'postmaster', 'abuse', 'webmaster', 'billing', 'help', 'office', 'noreply',
]);

export function isRoleLocal(local: string): boolean {
  return ROLE_LOCALS.has(local.toLowerCase());
}

/**
 * The key a local part is looked up by, as Postfix does: quotes and quoted pairs undone ("alice" is the
 * mailbox alice, "al ice" the mailbox al ice), then lower-cased.
 */
export function mailboxKey(local: string): string {
  const unquoted = local.length >= 2 && local.startsWith('"') && local.endsWith('"') ? local.slice(1, -1).replace(/\\(.)/g, '$1') : local;
  return unquoted.toLowerCase();
}

/** A domain's mailboxes by lower-cased local part (an exact lower-case key wins over a case variant). */
export type MailboxIndex = ReadonlyMap<string, MailboxState>;

/** Builds the case-insensitive mailbox lookup of a domain once, so no lookup walks the whole list. */
export function mailboxIndex(d: DomainSpec): MailboxIndex {
  const index = new Map<string, MailboxState>();
  const entries = Object.entries(d.mailboxes ?? {});
  for (const [k, state] of entries) if (k === k.toLowerCase()) index.set(k, state);
  for (const [k, state] of entries) if (!index.has(k.toLowerCase())) index.set(k.toLowerCase(), state);
  return index;
}

type Hop = { ip: string; priority: number; server: ServerSpec };

/** An unspecified address ('0.0.0.0', '::'): published in DNS, never a host anyone may connect to. */
export function isUnspecified(ip: string): boolean {
  return ip === '0.0.0.0' || ip === '::';
}

function hopsOf(d: DomainSpec): Hop[] {
  const mx = [...(d.mx ?? [])].sort((a: MxSpec, b: MxSpec) => a.priority - b.priority);
  if (mx.length > 0) return mx.filter((m) => m.ip).map((m) => ({ ip: m.ip ?? '', priority: m.priority, server: m.server ?? {} }));
  // The domain's own addresses (implicit MX) are all of one preference.
  return (d.aRecords ?? []).map((a) => ({ ip: a.ip, priority: 0, server: a.server ?? {} }));
}

const greets = (h: Hop): boolean => {
  const mode = h.server.mode ?? 'smtp';
  return mode === 'smtp' || mode === 'policy-banner';
};
/** Lets us in: greets with 220 and takes our MAIL FROM. */
const letsUsIn = (h: Hop): boolean => (h.server.mode ?? 'smtp') === 'smtp' && !h.server.rejectMailFrom;

/** `index`: mailboxIndex(d), when the caller asks about many addresses of the domain. */
export function truthFor(d: DomainSpec, local: string, index: MailboxIndex = mailboxIndex(d)): Truth {
  const base = {
    domain: d.domain,
    scenario: d.scenario,
    role: isRoleLocal(local),
    disposable: d.disposable === true,
  };
  const t = (verdict: Truth['verdict'], reason: Truth['reason']): Truth => ({ ...base, verdict, reason });
  const dns = d.dns ?? 'ok';
  if (dns === 'nxdomain') return t('undeliverable', 'no_domain');
  if (dns === 'servfail' || dns === 'timeout') return t('unknown', 'dns_error');
  if (d.nullMx) return t('undeliverable', 'null_mx');
  const published = hopsOf(d);
  if (published.length === 0) return t('undeliverable', 'no_mx');
  // Addresses nobody may connect to are skipped; with nothing else, the mailbox cannot be asked (never invalid).
  const hops = published.filter((h) => !isUnspecified(h.ip));
  if (hops.length === 0) return t('unknown', 'blocked_address');
  // The first MX in priority order that completes a greeting decides; among servers of that same
  // preference (RFC 5321 5.1: tried in any order), one that lets us in before one that refuses us at
  // the greeting or MAIL FROM (a sender moves on to its equal peer: Postfix's smtp_skip_5xx_greeting).
  const first = hops.find(greets);
  if (!first) return t('unknown', 'smtp_unreachable');
  // Of those, one that answers for every recipient (knows them, never hangs up on one) before one
  // that accepts everyone (no recipient list) or hangs up at unknown recipients.
  const peers = hops.filter((h) => h.priority === first.priority && letsUsIn(h));
  const live = peers.find((h) => !h.server.acceptAll && !h.server.hangUpAtUnknown) ?? peers.find((h) => !h.server.acceptAll) ?? peers[0] ?? first;
  if ((live.server.mode ?? 'smtp') === 'policy-banner' || live.server.rejectMailFrom || d.policyBlock || d.policyRefusal !== undefined) {
    return t('unknown', 'policy_block');
  }
  if (d.greylistMs === Infinity) return t('unknown', 'greylisted');
  // It never answers a RCPT (drops them silently): nothing is said about any mailbox.
  if (live.server.dropRcpts) return t('unknown', 'smtp_unreachable');
  // A backup MX that accepts every recipient cannot tell real from made-up: catch-all.
  if (live.server.acceptAll) return t('risky', 'catch_all');
  // A security gateway that accepts everyone at RCPT, or refuses unknown recipients only with a
  // policy code, never reveals whether a mailbox exists: unverifiable, never a confident valid.
  const gateway = live.server.persona === 'proofpoint' || live.server.persona === 'mimecast' || live.server.persona === 'barracuda';
  if (gateway && (d.catchAll || d.rejectUnknown === 'policy')) return t('unknown', 'security_gateway');
  const state = index.get(mailboxKey(local));
  // Nor does one that hangs up at an unknown recipient instead of refusing it: it never refuses a
  // made-up address as unknown, so its "accepted" is not believed (what it hangs up on is below).
  if (gateway && live.server.hangUpAtUnknown && d.rejectUnknown === undefined && state !== undefined) return t('unknown', 'security_gateway');
  if (d.rejectUnknown === 'policy' && state === undefined) return t('unknown', 'policy_block');
  // It hangs up at an unknown recipient instead of refusing it: nothing is said about that mailbox.
  if (live.server.hangUpAtUnknown && d.rejectUnknown === undefined && state === undefined && !d.catchAll) return t('unknown', 'smtp_unreachable');
  if (state === undefined && !d.catchAll) return t('undeliverable', 'mailbox_not_found');
  if (state === 'disabled') return t('undeliverable', 'mailbox_disabled');
  if (state === 'full' || state === 'full-temp') return t('risky', 'mailbox_full');
  if (d.catchAll) return t('risky', 'catch_all');
  if (d.disposable) return t('risky', 'disposable');
  return t('deliverable', 'accepted');
}
