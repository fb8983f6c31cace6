// "Did you mean …?" Offered only when the typed domain cannot receive mail (NXDOMAIN, null MX, no
// MX) or is a registered look-alike in data/typo-domains.txt. A domain that receives mail is never
// "corrected" (mac.com is not a typo of mail.com), and neither is a known provider.
import spellChecker from '@zootools/email-spell-checker';
import { loadList } from '../data/load-list';
import { isKnownProvider } from '../misc/free-provider';

const typoDomains = new Map(
  loadList('typo-domains.txt').map((line) => {
    const [typo = '', intended = ''] = line.split(/\s+/);
    return [typo, intended] as const;
  }),
);

export function knownTypoTarget(domain: string): string | null {
  return typoDomains.get(domain.toLowerCase()) ?? null;
}

/**
 * @param local the local part as typed
 * @param domain the A-label domain
 * @param domainHasMail false when DNS proved the domain takes no mail; null when not known
 * @returns the full suggested address, or null
 */
export function suggestAddress(local: string, domain: string, domainHasMail: boolean | null): string | null {
  const known = knownTypoTarget(domain);
  if (known) return `${local}@${known}`;
  if (domainHasMail !== false || isKnownProvider(domain)) return null;
  const hit = spellChecker.run({ email: `x@${domain}` });
  if (!hit || hit.domain === domain) return null;
  return `${local}@${hit.domain}`;
}
