// RFC 5321 mailbox syntax (with RFC 6531 SMTPUTF8 local parts), judged as typed. Forms that only
// RFC 5322 allows (comments, folding white space, display names, obsolete dotted quoted words) are
// rejected, and so is every character that would make the address something other than what the
// user sees: controls (CR, LF, NUL, NEL…), any white space but SP, invisible format characters
// (zero-width space/joiners outside their IDNA contexts, bidi controls, BOM, soft hyphen),
// noncharacters, U+FFFD and lone surrogates. Only surrounding SP/HTAB are ignored. RFC 5321 address
// literals (user@[192.0.2.1], user@[IPv6:2001:db8::1]) are valid; the verifier never probes them.
import { describeCharacter, hasLoneSurrogate, trimAddress } from '../contract';
import { toAsciiDomain } from './idna';

export const MAX_LOCAL = 64;
export const MAX_ADDRESS = 254;
/** An address (surrounding blanks aside) longer than this cannot be valid, so it is refused unread. */
const MAX_INPUT = 1024;

export interface ParsedAddress {
  /** Local part as written (quotes kept), case preserved: local parts may be case-sensitive. */
  local: string;
  /** Lower-case A-label domain. */
  domain: string;
  /** `local@domain` with the domain in A-labels. */
  normalized: string;
  quoted: boolean;
  smtputf8: boolean;
  /** The domain is an address literal ([192.0.2.1] or [IPv6:…]): valid, never looked up. */
  literal: boolean;
}

export type SyntaxCheck = { ok: true; details: ParsedAddress } | { ok: false; error: { type: 'syntax'; message: string } };

const fail = (message: string): SyntaxCheck => ({ ok: false, error: { type: 'syntax', message } });

// atext (RFC 5322 3.2.3) plus any non-ASCII character (RFC 6531 UTF8-non-ascii).
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10ffff}]+(?:\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10ffff}]+)*$/u;
// RFC 5321 Quoted-string: qtextSMTP (%d32-33 / %d35-91 / %d93-126 / UTF8-non-ascii) or quoted-pairSMTP ("\" %d32-126).
const QUOTED = /^"(?:[\u0020\u0021\u0023-\u005b\u005d-\u007e\u0080-\u{10ffff}]|\\[\u0020-\u007e])*"$/u;
const NON_ASCII = /[^\u0000-\u007f]/;

const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const named = describeCharacter;

const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;
const CONTROL = /^\p{Cc}$/u;
const SPACE = /^\p{White_Space}$/u;
const FORMAT = /^\p{Cf}$/u;
const NONCHARACTER = /^\p{Noncharacter_Code_Point}$/u;

/**
 * The first character that makes the text something other than what it looks like, or null.
 * ZWNJ/ZWJ are left to the domain's IDNA2008 context rules when `allowJoiners`.
 */
export function hiddenCharacterProblem(text: string, allowJoiners: boolean): string | null {
  // Printable ASCII and SP (nearly every address): none of the classes below has a member there.
  if (PRINTABLE_ASCII.test(text)) return null;
  if (hasLoneSurrogate(text)) return 'address contains a lone surrogate (it is not valid Unicode text)';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (CONTROL.test(ch)) return `address contains a control character (${named(cp)})`;
    if (cp !== 0x20 && SPACE.test(ch)) return `address contains a space character other than a plain space (${named(cp)})`;
    if (cp === 0xfffd) return `address contains ${named(cp)}: the text was garbled before it got here`;
    if (NONCHARACTER.test(ch)) return `address contains a Unicode noncharacter (${hex(cp)})`;
    if (FORMAT.test(ch) && !(allowJoiners && (cp === 0x200c || cp === 0x200d))) return `address contains an invisible formatting character (${named(cp)})`;
  }
  return null;
}

const IPV4_LITERAL = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV6_HEX = /^[0-9A-Fa-f]{1,4}$/;

/** RFC 5321 IPv4-address-literal: Snum 3("." Snum), each Snum 1–3 digits worth 0–255. */
function isIpv4Literal(text: string): boolean {
  const m = IPV4_LITERAL.exec(text);
  return m !== null && m.slice(1).every((n) => Number(n) <= 255);
}

/** How many IPv6-hex groups `text` is ("" is none), or null when it is not colon-separated groups. */
function hexGroups(text: string): number | null {
  if (text === '') return 0;
  const groups = text.split(':');
  return groups.every((g) => IPV6_HEX.test(g)) ? groups.length : null;
}

/**
 * RFC 5321 section 4.1.3 IPv6-addr, as its grammar writes it (stricter than RFC 4291, which
 * net.isIPv6 follows): IPv6-full is 8 groups, IPv6v4-full 6 and an IPv4 tail; in the compressed
 * forms "::" stands for at least two groups, so at most 6 groups (4 before an IPv4 tail) may appear
 * besides it. An IPv4 tail is an IPv4-address-literal (leading zeros allowed).
 */
function isRfc5321Ipv6(ip: string): boolean {
  const lastColon = ip.lastIndexOf(':');
  if (lastColon < 0) return false;
  let groups = ip;
  let max = 8;
  const tail = ip.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIpv4Literal(tail)) return false;
    max = 6;
    groups = ip.slice(0, lastColon + 1); // "1:2:3:4:5:6:", "::ffff:", "::"
    if (!groups.endsWith('::')) groups = groups.slice(0, -1);
  }
  const halves = groups.split('::');
  if (halves.length === 1) return hexGroups(groups) === max;
  if (halves.length !== 2) return false;
  const before = hexGroups(halves[0]!);
  const after = hexGroups(halves[1]!);
  return before !== null && after !== null && before + after <= max - 2;
}

type LiteralCheck = { ok: true; normalized: string } | { ok: false; message: string };

/** RFC 5321 section 4.1.3: IPv4-address-literal, or IPv6-address-literal ("IPv6:" is case-insensitive). */
export function parseAddressLiteral(raw: string): LiteralCheck {
  if (!raw.endsWith(']') || raw.length < 3) return { ok: false, message: 'malformed address literal (it must be enclosed in [ ])' };
  const inner = raw.slice(1, -1);
  if (IPV4_LITERAL.test(inner)) {
    if (!isIpv4Literal(inner)) return { ok: false, message: 'address literal has an IPv4 number above 255' };
    return { ok: true, normalized: `[${inner}]` };
  }
  const tag = /^([A-Za-z0-9-]*[A-Za-z0-9]):/.exec(inner);
  if (tag && tag[1]!.toLowerCase() === 'ipv6') {
    const ip = inner.slice(tag[0].length);
    // RFC 5321 IPv6-addr: hex groups, "::" compression, an IPv4 tail; no zone identifiers.
    if (!isRfc5321Ipv6(ip)) return { ok: false, message: 'address literal is not a valid IPv6 address (RFC 5321 IPv6-addr)' };
    return { ok: true, normalized: `[IPv6:${ip.toLowerCase()}]` };
  }
  if (tag) return { ok: false, message: `address literal tag "${tag[1]}" is not registered (only IPv6: is)` };
  return { ok: false, message: 'address literal is neither an IPv4 nor an IPv6: address' };
}

/** Parses one address. Surrounding SP/HTAB are ignored; everything else must be a clean mailbox. */
export function parseAddress(input: string): SyntaxCheck {
  // The gate measures the address, not the blanks around it (a padded cell of a fixed-width export).
  const text = trimAddress(input);
  if (text.length > MAX_INPUT) return fail('address is far too long');
  if (text.length === 0) return fail('address is empty');
  const at = text.lastIndexOf('@');
  const hidden = hiddenCharacterProblem(at < 0 ? text : text.slice(0, at), false) ?? (at < 0 ? null : hiddenCharacterProblem(text.slice(at + 1), true));
  if (hidden) return fail(hidden);
  if (at < 0) return fail('address has no @');
  const rawLocal = text.slice(0, at);
  const rawDomain = text.slice(at + 1);
  if (rawLocal.length === 0) return fail('local part is empty');

  const local = checkLocal(rawLocal);
  if (!local.ok) return fail(local.message);
  let domain: string;
  let literal = false;
  if (rawDomain.startsWith('[')) {
    const parsed = parseAddressLiteral(rawDomain);
    if (!parsed.ok) return fail(parsed.message);
    domain = parsed.normalized;
    literal = true;
  } else {
    const parsed = toAsciiDomain(rawDomain);
    if (!parsed.ok) return fail(parsed.message);
    domain = parsed.ascii;
  }

  const localOctets = utf8Length(rawLocal);
  if (localOctets > MAX_LOCAL) return fail(`local part longer than ${MAX_LOCAL} octets`);
  if (localOctets + 1 + domain.length > MAX_ADDRESS) return fail(`address longer than ${MAX_ADDRESS} octets`);

  return {
    ok: true,
    details: {
      local: rawLocal,
      domain,
      normalized: `${rawLocal}@${domain}`,
      quoted: local.quoted,
      smtputf8: NON_ASCII.test(rawLocal),
      literal,
    },
  };
}

/**
 * The local part as it goes on the wire (RCPT TO): RFC 5321 4.1.2 says a sender SHOULD use the form
 * with the least quoting, and "alice" is the same mailbox as alice. A quoted local part whose content
 * (quoted pairs undone) is a dot-atom is sent bare; one that needs its quotes (a space, "@"…) is sent as
 * written. Servers that look the quoted form up as it stands (or refuse its syntax, 553 5.1.3) would
 * otherwise answer for a mailbox nobody asked about.
 */
export function wireLocalPart(local: string): string {
  if (!local.startsWith('"')) return local;
  const content = local.slice(1, -1).replace(/\\(.)/gu, '$1');
  return content !== '' && DOT_ATOM.test(content) ? content : local;
}

type LocalCheck = { ok: true; quoted: boolean } | { ok: false; message: string };

function checkLocal(local: string): LocalCheck {
  if (local.startsWith('"')) {
    return QUOTED.test(local) ? { ok: true, quoted: true } : { ok: false, message: 'malformed quoted local part' };
  }
  if (local.includes('(') || local.includes(')')) return { ok: false, message: 'comments are not allowed in an address' };
  if (local.includes(' ')) return { ok: false, message: 'unquoted space in local part' };
  if (local.includes('"')) return { ok: false, message: 'quotes must enclose the whole local part' };
  if (local.startsWith('.') || local.endsWith('.')) return { ok: false, message: 'local part starts or ends with a dot' };
  if (local.includes('..')) return { ok: false, message: 'local part has consecutive dots' };
  if (!DOT_ATOM.test(local)) return { ok: false, message: 'invalid character in local part' };
  return { ok: true, quoted: false };
}
