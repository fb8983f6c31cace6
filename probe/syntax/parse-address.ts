// RFC 5321 mailbox syntax (with RFC 6531 SMTPUTF8 local parts). Forms that only RFC 5322 allows
// (comments, folding white space, display names, obsolete dotted quoted words) are rejected, and
// so are CR, LF and every control character. Address literals ([1.2.3.4]) are refused on purpose:
// no public mailbox is reachable through one, and the probe would have to connect to a raw IP.
import { toAsciiDomain } from './idna';

export const MAX_LOCAL = 64;
export const MAX_ADDRESS = 254;
/** Anything longer cannot become a valid address (even after IDNA mapping), so it is refused unread. */
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
}

export type SyntaxCheck = { ok: true; details: ParsedAddress } | { ok: false; error: { type: 'syntax'; message: string } };

const fail = (message: string): SyntaxCheck => ({ ok: false, error: { type: 'syntax', message } });

// C0 controls, DEL and C1 controls (which include NEL, a line break in disguise).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// atext (RFC 5322 3.2.3) plus any non-ASCII character (RFC 6531 UTF8-non-ascii).
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10ffff}]+(?:\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10ffff}]+)*$/u;
// RFC 5321 Quoted-string: qtextSMTP (%d32-33 / %d35-91 / %d93-126 / UTF8-non-ascii) or quoted-pairSMTP ("\" %d32-126).
const QUOTED = /^"(?:[\u0020\u0021\u0023-\u005b\u005d-\u007e\u0080-\u{10ffff}]|\\[\u0020-\u007e])*"$/u;
const NON_ASCII = /[^\u0000-\u007f]/;

const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Parses one address. Surrounding spaces are ignored; everything else must be a clean mailbox. */
export function parseAddress(input: string): SyntaxCheck {
  if (input.length > MAX_INPUT) return fail('address is far too long');
  if (CONTROL.test(input)) return fail('address contains a control character (CR, LF, tab …)');
  const text = input.replace(/^ +| +$/g, '');
  if (text.length === 0) return fail('address is empty');
  const at = text.lastIndexOf('@');
  if (at < 0) return fail('address has no @');
  const rawLocal = text.slice(0, at);
  const rawDomain = text.slice(at + 1);
  if (rawLocal.length === 0) return fail('local part is empty');
  if (rawDomain.startsWith('[')) return fail('address literals are not accepted');

  const local = checkLocal(rawLocal);
  if (!local.ok) return fail(local.message);
  const domain = toAsciiDomain(rawDomain);
  if (!domain.ok) return fail(domain.message);

  const localOctets = utf8Length(rawLocal);
  if (localOctets > MAX_LOCAL) return fail(`local part longer than ${MAX_LOCAL} octets`);
  if (localOctets + 1 + domain.ascii.length > MAX_ADDRESS) return fail(`address longer than ${MAX_ADDRESS} octets`);

  return {
    ok: true,
    details: {
      local: rawLocal,
      domain: domain.ascii,
      normalized: `${rawLocal}@${domain.ascii}`,
      quoted: local.quoted,
      smtputf8: NON_ASCII.test(rawLocal),
    },
  };
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
