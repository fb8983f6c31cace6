// The one source of truth for what a verification returns. Pure zod: the server, the browser
// and the probe daemon all parse results with these schemas, so nothing is copied.
import { z } from 'zod';

export const depthSchema = z.enum(['syntax', 'mx', 'smtp']);
export type Depth = z.infer<typeof depthSchema>;

/** The engine's verdict (DESIGN.md "Verdicts"). */
export const verdictSchema = z.enum(['deliverable', 'undeliverable', 'risky', 'unknown']);
export type Verdict = z.infer<typeof verdictSchema>;

/** The spec's result: deliverable → valid, undeliverable → invalid, risky and unknown → risky. */
export const resultSchema = z.enum(['valid', 'invalid', 'risky']);
export type Result = z.infer<typeof resultSchema>;

/** Machine-readable reason behind a verdict. */
export const reasonSchema = z.enum([
  'accepted', // mailbox accepted, random mailbox refused
  'syntax', // address is not a valid RFC 5321 mailbox
  'no_domain', // NXDOMAIN
  'null_mx', // domain publishes "0 ." (accepts no mail)
  'dns_error', // SERVFAIL or DNS timeout: unknown, never invalid
  'no_mx', // no MX and no usable A/AAAA
  'smtp_unreachable', // every MX refused, silent or timed out
  'policy_block', // 5.7.x or a reputation/policy refusal
  'greylisted', // 4xx not cleared before the deadline
  'mailbox_not_found', // 5.1.x user unknown
  'mailbox_disabled', // 5.2.1
  'mailbox_full', // 5.2.2 / 4.2.2
  'catch_all', // accepted and the random mailbox accepted too
  'disposable', // disposable provider, whatever SMTP said
  'blocked_address', // MX resolves to a private/loopback/metadata address and that is not allowed
  'smtp_not_checked', // depth syntax or mx: the mailbox itself was not asked
  'address_literal', // user@[192.0.2.1] / user@[IPv6:…]: valid syntax, never probed (no mailbox can be checked behind a raw IP)
  'smtputf8_unsupported', // UTF-8 local part, and no mail server of the domain offers SMTPUTF8 (RFC 6531): never asked, unknown
  'security_gateway', // a security gateway (Proofpoint, Mimecast, Barracuda…) accepts everyone or answers by policy: the mailbox cannot be verified there
]);
export type Reason = z.infer<typeof reasonSchema>;

export const verdictToResult: Record<Verdict, Result> = {
  deliverable: 'valid',
  undeliverable: 'invalid',
  risky: 'risky',
  unknown: 'risky',
};

export const smtpReplySchema = z.object({
  stage: z.string(), // banner | ehlo | helo | starttls | mail | rcpt | rcpt_random | quit
  code: z.number().int(),
  enhanced: z.string().nullable(), // e.g. "5.1.1"
  text: z.string(),
});
export type SmtpReply = z.infer<typeof smtpReplySchema>;

export const evidenceSchema = z.object({
  depth: depthSchema,
  mx_host: z.string().nullable(),
  mx_ip: z.string().nullable(),
  replies: z.array(smtpReplySchema),
  retries: z.number().int(),
  detail: z.string().nullable(), // human explanation, e.g. "DNS timeout after 2 attempts"
  /** Who runs the mail servers, from their greeting (MX names as a hint): microsoft365, proofpoint, mimecast, barracuda. */
  provider: z.string().nullable().optional(),
  /** How sure the verdict is: high (the server told real from made-up, or DNS/syntax decided), medium, low (could not be verified). */
  confidence: z.enum(['high', 'medium', 'low']).optional(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const verificationResultSchema = z.object({
  email: z.string(), // the input, verbatim
  normalized: z.string().nullable(), // local@a-label-domain (domain lower-cased), null when unparseable
  verdict: verdictSchema,
  result: resultSchema,
  reason: reasonSchema,
  catch_all: z.boolean().nullable(), // null when not determined
  disposable: z.boolean(),
  role: z.boolean(),
  free_provider: z.boolean(),
  score: z.number().int().min(0).max(100),
  mx_hosts: z.array(z.string()),
  suggestion: z.string().nullable(), // full suggested address ("john@gmail.com") or null
  smtputf8: z.boolean(), // local part needs SMTPUTF8
  quoted_local: z.boolean(), // local part was a quoted string
  ms: z.number().int(),
  // spec (dashboard) shape
  is_syntax_valid: z.boolean(),
  is_dns_valid: z.boolean(),
  is_mx_valid: z.boolean(),
  is_smtp_valid: z.boolean(),
  deliverability_score: z.number().int().min(0).max(100),
  role_detected: z.boolean(),
  disposable_provider: z.boolean(),
  domain_age_days: z.number().int().nullable(),
  evidence: evidenceSchema,
});
export type VerificationResult = z.infer<typeof verificationResultSchema>;

export const MAX_BATCH = 10_000;
/** Longest address a daemon takes (characters); longer ones are refused by the syntax check anyway. */
export const MAX_ADDRESS_CHARS = 1024;

export const verifyRequestSchema = z.object({
  emails: z.array(z.string().max(MAX_ADDRESS_CHARS)).min(1).max(MAX_BATCH),
  depth: depthSchema.default('smtp'),
  /** 'realtime' keeps the greylisting deadline short; 'bulk' keeps it long. */
  mode: z.enum(['realtime', 'bulk']).default('realtime'),
  /**
   * Catch-all answers the fleet already has (domain as the probe writes it, A-label lower case →
   * whether a random mailbox was accepted): a node given one skips its own random-mailbox check for
   * that domain, so a domain split over several nodes is checked once. Sent by ProbeClient only.
   */
  catch_all: z.record(z.string().min(1).max(253), z.boolean()).optional(),
  /**
   * Domains (each address's domain part, lower case) whose random mailbox another node of the fleet
   * is asking right now: this node asks none there and holds those domains' "accepted" answers until
   * that answer comes (POST /v1/catch-all), or asks itself when it says nothing was learnt or does not
   * come. Lets a split domain's shares start at once and still be checked once. Sent by ProbeClient only.
   */
  catch_all_pending: z.array(z.string().min(1).max(253)).max(MAX_BATCH).optional(),
});
export type VerifyRequest = z.input<typeof verifyRequestSchema>;

/** POST /v1/catch-all: the answer for a domain sent as catch_all_pending (null: none was learnt; ask it yourself). */
export const catchAllAnswerSchema = z.object({
  domain: z.string().min(1).max(253),
  catch_all: z.boolean().nullable(),
});
export type CatchAllAnswer = z.infer<typeof catchAllAnswerSchema>;

/**
 * The one trimming rule for addresses, wherever they come in (dashboard, /v1, CSV, schedules, CLI):
 * only surrounding SP and HTAB (RFC 5234 WSP) are removed. CR, LF, NBSP, zero-width and other
 * characters stay, so the syntax check sees them and says why the address is invalid.
 */
export function trimAddress(raw: string): string {
  // By index, not /[ \t]+$/: that regex rescans a run of blanks from each of its characters, so a
  // 10 MB CSV cell of spaces between two letters took hours.
  const blank = (i: number) => raw.charCodeAt(i) === 0x20 || raw.charCodeAt(i) === 0x09;
  let start = 0;
  let end = raw.length;
  while (start < end && blank(start)) start++;
  while (end > start && blank(end - 1)) end--;
  return start === 0 && end === raw.length ? raw : raw.slice(start, end);
}

const CHARACTER_NAMES: Record<number, string> = {
  0x0000: 'NUL', 0x0009: 'TAB', 0x000a: 'LINE FEED', 0x000d: 'CARRIAGE RETURN', 0x0085: 'NEXT LINE',
  0x00a0: 'NO-BREAK SPACE', 0x00ad: 'SOFT HYPHEN', 0x200b: 'ZERO WIDTH SPACE', 0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER', 0x200e: 'LEFT-TO-RIGHT MARK', 0x200f: 'RIGHT-TO-LEFT MARK', 0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2028: 'LINE SEPARATOR', 0x2029: 'PARAGRAPH SEPARATOR', 0x3000: 'IDEOGRAPHIC SPACE', 0xfeff: 'BYTE ORDER MARK', 0xfffd: 'REPLACEMENT CHARACTER',
  0x3002: 'IDEOGRAPHIC FULL STOP', 0xff0e: 'FULLWIDTH FULL STOP', 0xff61: 'HALFWIDTH IDEOGRAPHIC FULL STOP',
};

/** "U+000D CARRIAGE RETURN" (or just "U+xxxx"): how reasons name the character that made an address invalid. */
export function describeCharacter(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return CHARACTER_NAMES[cp] ? `${hex} ${CHARACTER_NAMES[cp]}` : hex;
}

/** U+0000 can be neither stored nor sent: input holding it is refused, not judged. */
export const NUL_MESSAGE = 'Addresses cannot contain the NUL character (U+0000).';
export const hasNul = (s: string): boolean => s.includes('\u0000');

/**
 * A lone surrogate (a JSON "\ud800" escape on its own) is possible in a JS string but is not Unicode
 * text (what String.prototype.isWellFormed tests): stored, it becomes U+FFFD, so two different
 * addresses of one list would become the same row. Lists refuse it; a single check judges it (syntax).
 */
export const LONE_SURROGATE_MESSAGE = 'Addresses must be valid Unicode text: a lone surrogate (e.g. a "\\ud800" escape on its own) cannot be stored as sent.';
export const hasLoneSurrogate = (s: string): boolean => /\p{Cs}/u.test(s);
