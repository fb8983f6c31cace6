/// <reference path="../vendor-modules.d.ts" />
// IDN domains to A-labels under IDNA2008 (idna2008.ts: every code point PVALID or allowed by its
// context, nothing mapped but letter case), then the DNS length rules of RFC 1035/5321: labels
// 1–63 octets of letters, digits and inner hyphens, names of at most 253. tr46 does the Punycode
// conversion and the Bidi rule (RFC 5893); what it would map differently is refused.
import { toASCII, toUnicode } from 'tr46';
import { describeCharacter } from '../contract';
import { idnaProperty, uLabelProblem } from './idna2008';

export const MAX_LABEL = 63;
export const MAX_DOMAIN = 253;

export type DomainCheck = { ok: true; ascii: string } | { ok: false; message: string };

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** U+3002 IDEOGRAPHIC, U+FF0E FULLWIDTH and U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP: IDNA2003's other dots. */
export const OTHER_FULL_STOPS = /[\u3002\uff0e\uff61]/;

// checkHyphens off: the hyphen rules of U-labels are uLabelProblem's (RFC 5891 4.2.3.1), and an ASCII
// label is an RFC 1035 host-name label (checkHostName) whatever the other labels are — "ab--cd" is
// judged the same in ab--cd.com and in bücher.ab--cd.com.
const TR46 = { useSTD3ASCIIRules: true, checkHyphens: false, checkBidi: true, checkJoiners: true, verifyDNSLength: true, transitionalProcessing: false } as const;

/**
 * Letter case is the one thing changed (RFC 5895 section 2, step 1: DNS names are case-insensitive),
 * and only for a true case pair: a code point IDNA2008 disallows whose lower-case form is a single
 * PVALID code point and which is not a compatibility character. So Ü becomes ü, while the KELVIN SIGN
 * (→ k), OHM SIGN (→ ω) and İ (→ i + combining dot) are kept as typed and refused; Cherokee capitals,
 * which IDNA2008 allows, stay capitals.
 */
export function lowerCaseDomain(domain: string): string {
  let out = '';
  for (const ch of domain) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) { out += ch.toLowerCase(); continue; }
    const lower = ch.toLowerCase();
    const single = [...lower].length === 1;
    out += idnaProperty(cp) === 'DISALLOWED' && lower !== ch && single && ch.normalize('NFKC') === ch && idnaProperty(lower.codePointAt(0)!) === 'PVALID' ? lower : ch;
  }
  return out;
}

/** Converts a (possibly Unicode) domain to its lower-case A-label form and checks it is a host name. */
export function toAsciiDomain(domain: string): DomainCheck {
  if (domain.length === 0) return { ok: false, message: 'empty domain' };
  if (domain.endsWith('.')) return { ok: false, message: 'domain ends with a dot' };
  const needsIdna = /[^\x00-\x7f]/.test(domain) || /(^|\.)xn--/i.test(domain);
  if (!needsIdna) return checkHostName(domain.toLowerCase());
  // Only U+002E separates labels (IDNA2008, RFC 5891 5.2): the ideographic, fullwidth and halfwidth
  // full stops that IDNA2003 (RFC 3490 3.1) also took for dots are not mapped, and the message says so.
  const otherDot = OTHER_FULL_STOPS.exec(domain);
  if (otherDot) return { ok: false, message: `domain uses ${describeCharacter(otherDot[0].codePointAt(0)!)} as a dot: only "." separates labels` };
  const labels = lowerCaseDomain(domain).split('.');
  const uLabels: string[] = [];
  for (const label of labels) {
    let u = label;
    if (label.startsWith('xn--')) {
      const decoded = toUnicode(label, { ...TR46, useSTD3ASCIIRules: false });
      if (decoded.error || decoded.domain === label) return { ok: false, message: `domain label "${label}" is not a valid A-label` };
      u = decoded.domain;
      if (toASCII(u, TR46) !== label) return { ok: false, message: `domain label "${label}" is not a valid A-label (it does not round-trip)` };
    }
    if (/[^\x00-\x7f]/.test(u)) {
      const problem = uLabelProblem(u);
      if (problem) return { ok: false, message: problem };
    }
    uLabels.push(u);
  }
  const ascii = toASCII(uLabels.join('.'), TR46);
  if (ascii === null) return { ok: false, message: 'domain is not a valid internationalised name (IDNA2008 Bidi or joiner rules)' };
  // Nothing may have been mapped on the way: the A-labels must spell exactly the labels we checked.
  const back = toUnicode(ascii, { ...TR46, useSTD3ASCIIRules: false });
  if (back.error || back.domain !== uLabels.join('.')) return { ok: false, message: 'domain contains characters that IDNA would silently change' };
  return checkHostName(ascii);
}

/** RFC 1035 host-name rules on an ASCII, lower-case name. */
export function checkHostName(ascii: string): DomainCheck {
  if (ascii.length > MAX_DOMAIN) return { ok: false, message: `domain longer than ${MAX_DOMAIN} characters` };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, message: 'domain needs at least two labels' };
  for (const label of labels) {
    if (label.length === 0) return { ok: false, message: 'empty label in domain' };
    if (label.length > MAX_LABEL) return { ok: false, message: `domain label longer than ${MAX_LABEL} characters` };
    if (!LDH_LABEL.test(label)) return { ok: false, message: `invalid characters in domain label "${label}"` };
  }
  const tld = labels[labels.length - 1] ?? '';
  if (/^[0-9]+$/.test(tld)) return { ok: false, message: 'top-level domain is numeric' };
  return { ok: true, ascii };
}
