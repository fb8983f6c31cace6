// The one place a verdict and a score are computed (probe/SCORING.md documents the formula).
// Pure: it takes what the checks found and returns { verdict, reason, score }.
import type { Depth, Reason, Verdict } from './contract';

/** What DNS found for the domain; null when DNS was not asked (depth syntax). */
export type DnsFinding = 'ok' | 'no_domain' | 'null_mx' | 'dns_error' | 'no_mx';

/** What SMTP finally said about the mailbox; null when SMTP was not asked. */
export type SmtpFinding =
  | 'accepted'
  | 'smtp_unreachable'
  | 'policy_block'
  | 'greylisted'
  | 'mailbox_not_found'
  | 'mailbox_disabled'
  | 'mailbox_full'
  /** The address needs SMTPUTF8 (RFC 6531) and no mail server of the domain offered it: never asked. */
  | 'smtputf8_unsupported';

export interface Facts {
  depth: Depth;
  syntaxOk: boolean;
  dns: DnsFinding | null;
  /** The domain is an RFC 5321 address literal ([192.0.2.1]): never looked up or connected to. */
  addressLiteral?: boolean;
  /** Every mail server address was refused by the network guard. */
  blockedAddress: boolean;
  smtp: SmtpFinding | null;
  /** The random mailbox was accepted (true), refused (false), or not determined (null). */
  catchAll: boolean | null;
  /**
   * The answering server is a security gateway (Proofpoint, Mimecast, Barracuda…): its "accepted"
   * proves nothing unless it refused the random mailbox, and its policy refusals hide the mailbox.
   */
  gateway?: boolean;
  disposable: boolean;
  role: boolean;
  freeProvider: boolean;
  quotedLocal: boolean;
  smtputf8: boolean;
  domainAgeDays: number | null;
  /** Number of DNSBL zones listing the mail server's address. */
  dnsblListings: number;
}

export interface Assessment {
  verdict: Verdict;
  reason: Reason;
  score: number;
  confidence: Confidence;
}

/** DESIGN.md's verdict table, applied in order: the first rule that matches decides. */
export function decideVerdict(f: Facts): { verdict: Verdict; reason: Reason } {
  if (!f.syntaxOk) return { verdict: 'undeliverable', reason: 'syntax' };
  if (f.addressLiteral) return { verdict: 'unknown', reason: 'address_literal' };
  if (f.dns === 'no_domain') return { verdict: 'undeliverable', reason: 'no_domain' };
  if (f.dns === 'null_mx') return { verdict: 'undeliverable', reason: 'null_mx' };
  if (f.dns === 'dns_error') return { verdict: 'unknown', reason: 'dns_error' };
  if (f.dns === 'no_mx') return { verdict: 'undeliverable', reason: 'no_mx' };
  if (f.blockedAddress) return { verdict: 'unknown', reason: 'blocked_address' };
  if (f.smtp === null) {
    return f.disposable ? { verdict: 'risky', reason: 'disposable' } : { verdict: 'unknown', reason: 'smtp_not_checked' };
  }
  // A gateway that has not shown it tells real mailboxes from made-up ones (it did not refuse the
  // random mailbox as unknown) is not trusted on a mailbox either: accepted, disabled or full.
  const unproven = f.catchAll !== false && (f.smtp === 'accepted' || f.smtp === 'mailbox_disabled' || f.smtp === 'mailbox_full');
  if (f.gateway && (f.smtp === 'policy_block' || unproven)) {
    return { verdict: 'unknown', reason: 'security_gateway' };
  }
  switch (f.smtp) {
    case 'smtp_unreachable':
    case 'policy_block':
    case 'greylisted':
    case 'smtputf8_unsupported':
      return { verdict: 'unknown', reason: f.smtp };
    case 'mailbox_not_found':
    case 'mailbox_disabled':
      return { verdict: 'undeliverable', reason: f.smtp };
    case 'mailbox_full':
      return { verdict: 'risky', reason: 'mailbox_full' };
    case 'accepted':
      if (f.catchAll === true) return { verdict: 'risky', reason: 'catch_all' };
      if (f.disposable) return { verdict: 'risky', reason: 'disposable' };
      return { verdict: 'deliverable', reason: 'accepted' };
  }
}

/** Starting score per reason (SCORING.md, table 1). */
export const BASE_SCORE: Record<Reason, number> = {
  accepted: 90,
  catch_all: 55,
  smtp_not_checked: 50,
  greylisted: 50,
  policy_block: 40,
  security_gateway: 40,
  smtputf8_unsupported: 40,
  mailbox_full: 35,
  smtp_unreachable: 30,
  disposable: 25,
  dns_error: 25,
  blocked_address: 20,
  address_literal: 10,
  syntax: 0,
  no_domain: 0,
  null_mx: 0,
  no_mx: 0,
  mailbox_not_found: 0,
  mailbox_disabled: 0,
};

/**
 * Score range each verdict is clamped to (SCORING.md, table 3): the score never contradicts the
 * verdict. Risky's floor is not above unknown's: a disposable domain turns "not checked" (unknown)
 * into risky, and that must never lift a score the other flags had pushed to the floor.
 */
export const SCORE_RANGE: Record<Verdict, readonly [number, number]> = {
  deliverable: [70, 100],
  risky: [5, 69],
  unknown: [5, 60],
  undeliverable: [0, 0],
};

/** Adjustments (SCORING.md, table 2). */
export function scoreAdjustments(f: Facts, reason: Reason): number {
  let delta = 0;
  if (reason === 'accepted' && f.catchAll === false) delta += 10; // the server told a real mailbox from a fake one
  if (f.role) delta -= 15;
  if (f.disposable && reason !== 'disposable') delta -= 30;
  delta -= 10 * Math.min(f.dnsblListings, 2);
  if (f.domainAgeDays !== null) {
    if (f.domainAgeDays < 30) delta -= 20;
    else if (f.domainAgeDays < 180) delta -= 10;
  }
  if (f.quotedLocal) delta -= 5;
  if (f.smtputf8) delta -= 5;
  return delta;
}

export type Confidence = 'high' | 'medium' | 'low';

/**
 * How sure the verdict is (SCORING.md, table 4): high when DNS, syntax or a server that tells real
 * mailboxes from made-up ones decided; medium when a server accepted but the random mailbox got no
 * answer, or for a full mailbox or a disposable domain; low when the mailbox could not be verified.
 */
export function confidenceOf(verdict: Verdict, reason: Reason, catchAll: boolean | null): Confidence {
  if (verdict === 'undeliverable') return 'high';
  if (verdict === 'deliverable') return catchAll === false ? 'high' : 'medium';
  if (reason === 'mailbox_full' || reason === 'disposable') return 'medium';
  return 'low';
}

/** The verdict, its reason, the 0–100 deliverability score and the confidence. */
export function assess(f: Facts): Assessment {
  const { verdict, reason } = decideVerdict(f);
  const [lo, hi] = SCORE_RANGE[verdict];
  const raw = BASE_SCORE[reason] + scoreAdjustments(f, reason);
  return { verdict, reason, score: Math.max(lo, Math.min(hi, Math.round(raw))), confidence: confidenceOf(verdict, reason, f.catchAll) };
}
