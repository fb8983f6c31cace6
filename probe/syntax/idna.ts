// IDN domains to A-labels (UTS #46 non-transitional, STD3 rules), then the DNS length rules of
// RFC 1035/5321: labels 1–63 octets of letters, digits and inner hyphens, names of at most 253.
import { toASCII } from 'tr46';

export const MAX_LABEL = 63;
export const MAX_DOMAIN = 253;

export type DomainCheck = { ok: true; ascii: string } | { ok: false; message: string };

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Converts a (possibly Unicode) domain to its lower-case A-label form and checks it is a host name. */
export function toAsciiDomain(domain: string): DomainCheck {
  if (domain.length === 0) return { ok: false, message: 'empty domain' };
  if (domain.endsWith('.')) return { ok: false, message: 'domain ends with a dot' };
  const needsIdna = /[^\x00-\x7f]/.test(domain) || /(^|\.)xn--/i.test(domain);
  let ascii = domain.toLowerCase();
  if (needsIdna) {
    const converted = toASCII(domain, {
      useSTD3ASCIIRules: true,
      checkHyphens: true,
      checkBidi: true,
      checkJoiners: true,
      verifyDNSLength: true,
      transitionalProcessing: false,
    });
    if (converted === null) return { ok: false, message: 'domain is not a valid internationalised name' };
    ascii = converted;
  }
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
