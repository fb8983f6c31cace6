// "Did you mean …?" Offered only when the typed domain cannot receive mail (NXDOMAIN, null MX, no
// MX) or is a registered look-alike in data/typo-domains.txt. A domain that receives mail is never
// "corrected" (mac.com is not a typo of mail.com), and neither is a known provider.
import { createRequire } from 'node:module';
import spellChecker from '@zootools/email-spell-checker';
import { loadList } from '../data/load-list';

const require = createRequire(import.meta.url);
/** Well-known real providers (email-providers' common list): never "corrected". The full list is not
 * used here because it also holds look-alikes such as hotmai.com and gmial.com. */
const commonProviders = new Set(require('email-providers/common.json') as string[]);

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
  if (domainHasMail !== false || commonProviders.has(domain.toLowerCase())) return null;
  const hit = spellChecker.run({ email: `x@${domain}` });
  if (!hit || hit.domain === domain || !isPlausibleTypo(domain, hit.domain)) return null;
  return `${local}@${hit.domain}`;
}

/** A slip of the fingers: at most two edits, and the name did not lose more than one character. */
export function isPlausibleTypo(typed: string, intended: string): boolean {
  return editDistance(typed, intended) <= 2 && intended.length >= typed.length - 1;
}

/** Levenshtein distance (insertions, deletions, substitutions), with adjacent swaps counting as one. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
