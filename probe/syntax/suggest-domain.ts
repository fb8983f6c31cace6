// "Did you mean …?" Offered only when the typed domain cannot receive mail (NXDOMAIN, null MX, no
// MX), is a registered look-alike in data/typo-domains.txt, or fails syntax only in its dots
// (gmailcom, gmail..com, gmail,com). A domain that receives mail is never "corrected" (mac.com is not
// a typo of mail.com), and neither is a known provider. A suggestion is never itself a known look-alike.
import { createRequire } from 'node:module';
import spellChecker from '@zootools/email-spell-checker';
import { parse as parseDomain } from 'tldts';
import { loadList } from '../data/load-list';
import { trimAddress } from '../contract';
import { isDisposableDomain } from '../misc/disposable';
import { OTHER_FULL_STOPS } from './idna';
import { parseAddress } from './parse-address';

const require = createRequire(import.meta.url);
/** Well-known real providers (email-providers' common list): never "corrected". The full list is not
 * used for that because it also holds look-alikes such as hotmai.com and gmial.com. */
const commonProviders = require('email-providers/common.json') as string[];
const commonProviderSet = new Set(commonProviders);
/** Every provider domain email-providers knows, ccTLD forms included (hotmail.com.br, yahoo.co.jp). */
const knownProviders = new Set(require('email-providers/all.json') as string[]);

const typoDomains = new Map(
  loadList('typo-domains.txt').map((line) => {
    const [typo = '', intended = ''] = line.split(/\s+/);
    return [typo, intended] as const;
  }),
);

export function knownTypoTarget(domain: string): string | null {
  return typoDomains.get(domain.toLowerCase()) ?? null;
}

/** The name a provider registered under its public suffix: yahoo.co.jp → yahoo. */
function brandOf(domain: string): string {
  return parseDomain(domain).domainWithoutSuffix ?? domain;
}

/**
 * A domain cut at its public suffix: the label(s) typed before it, and the suffix (hotmial.com.br →
 * hotmial, com.br). A domain that is itself a public suffix (web.id, mail.pl) or that tldts refuses
 * is cut at its last dot.
 */
interface SplitDomain {
  domain: string;
  name: string;
  suffix: string;
}

function splitAtSuffix(domain: string): SplitDomain {
  const { publicSuffix } = parseDomain(domain);
  const suffix = publicSuffix && publicSuffix.length < domain.length ? publicSuffix : domain.slice(domain.lastIndexOf('.') + 1);
  return { domain, name: domain.slice(0, Math.max(0, domain.length - suffix.length - 1)), suffix };
}

/**
 * The edits that turn the public suffix as typed into the intended one, when they can be a slip: at
 * most one (hotmail.con, yahoo.cm → .com), and never one country code for another, which names a
 * different domain (a dead hotmail.pl is not hotmail.ru, yahoo.cz not yahoo.ca, yahoo.com.tr not
 * yahoo.com.tw); else null.
 */
function suffixEdits(typed: string, intended: string): number | null {
  if (typed === intended) return 0;
  const tld = (suffix: string) => suffix.slice(suffix.lastIndexOf('.') + 1);
  const [a, b] = [tld(typed), tld(intended)];
  if (a !== b && /^[a-z]{2}$/.test(a) && /^[a-z]{2}$/.test(b)) return null;
  return editDistance(typed, intended, 1) <= 1 ? 1 : null;
}

/**
 * The edits from `typed` to `intended` when they are a slip of the fingers on `brand`, else null: at
 * most two edits for a long name (hotmail, outlook), one for gmail, live or aol, none for go, o2 or i
 * (a short dead domain is two edits from many real ones: acme.com from aim.com, mymail.com from
 * gmail.com), and the name lost at most one character. The name and the public suffix are measured
 * apart (see suffixEdits): two edits over the whole domain turned a dead hotmail.pl into hotmail.ru.
 */
function slipEdits(typed: SplitDomain, intended: SplitDomain, brand: string): number | null {
  const allowed = brand.length >= 7 ? 2 : brand.length >= 3 ? 1 : 0;
  // Each edit changes the length by at most one: most candidates are ruled out without measuring.
  if (Math.abs(typed.domain.length - intended.domain.length) > allowed || intended.domain.length < typed.domain.length - 1) return null;
  const inSuffix = suffixEdits(typed.suffix, intended.suffix);
  if (inSuffix === null || inSuffix > allowed) return null;
  const edits = inSuffix + editDistance(typed.name, intended.name, allowed - inSuffix);
  return edits > 0 && edits <= allowed ? edits : null;
}

/** The candidate with the fewest edits (the first of equals: the lists are in order of popularity). */
function fewestEdits(candidates: { domain: string; edits: number | null }[]): string | null {
  let best: { domain: string; edits: number } | null = null;
  for (const { domain, edits } of candidates) if (edits !== null && (best === null || edits < best.edits)) best = { domain, edits };
  return best?.domain ?? null;
}

/** RFC 2606 names, listed upstream by mistake: they take no mail. */
const RESERVED_EXAMPLE_DOMAINS = new Set(['example.com', 'example.net', 'example.org']);
/** The common providers a typo may be corrected to: never a look-alike, a disposable service or a reserved name. */
const suggestionTargets = commonProviders.filter((d) => !typoDomains.has(d) && !isDisposableDomain(d) && !RESERVED_EXAMPLE_DOMAINS.has(d)).map((domain) => ({ ...splitAtSuffix(domain), brand: brandOf(domain) }));
const targetBrands = new Set(suggestionTargets.map((t) => t.brand));
/** Public suffix → the common providers' names that have a known provider domain under it (com.br → hotmail, yahoo …). */
const brandsBySuffix = new Map<string, string[]>();
for (const domain of knownProviders) {
  const { domainWithoutSuffix: brand, publicSuffix, isIcann, subdomain } = parseDomain(domain);
  if (!isIcann || !brand || !publicSuffix || subdomain || !targetBrands.has(brand) || typoDomains.has(domain)) continue;
  brandsBySuffix.set(publicSuffix, [...(brandsBySuffix.get(publicSuffix) ?? []), brand]);
}
/** Each target by its letters without dots: gmailcom → gmail.com. */
const targetsWithoutDots = new Map<string, string>();
for (const { domain } of suggestionTargets) if (!targetsWithoutDots.has(domain.replaceAll('.', ''))) targetsWithoutDots.set(domain.replaceAll('.', ''), domain);

/**
 * The common provider nearest to `domain` within a slip: first the provider domains themselves
 * (hotmail.con → hotmail.com, icluod.com → icloud.com), then a provider's name under the public
 * suffix as typed, where the provider has a domain (hotmial.com.br → hotmail.com.br).
 */
function nearestCommonProvider(domain: string): string | null {
  const d = domain.toLowerCase();
  const typed = splitAtSuffix(d);
  const provider = fewestEdits(suggestionTargets.map((t) => ({ domain: t.domain, edits: slipEdits(typed, t, t.brand) })));
  if (provider) return provider;
  const { domainWithoutSuffix: name, publicSuffix, isIcann, subdomain } = parseDomain(d);
  if (!isIcann || !name || !publicSuffix || subdomain) return null;
  return fewestEdits((brandsBySuffix.get(publicSuffix) ?? []).map((brand) => ({ domain: `${brand}.${publicSuffix}`, edits: slipEdits({ domain: name, name, suffix: '' }, { domain: brand, name: brand, suffix: '' }, brand) })));
}

/**
 * @param local the local part as typed
 * @param domain the A-label domain
 * @param domainHasMail false when DNS proved the domain takes no mail; null when not known
 * @returns the full suggested address, or null
 */
export function suggestAddress(local: string, domain: string, domainHasMail: boolean | null): string | null {
  const suggested = suggestDomain(domain.toLowerCase(), domainHasMail);
  return suggested === null ? null : `${local}@${suggested}`;
}

/** Domains suggested lately: a batch asks once per address, for the same few dead domains. */
const recentSuggestions = new Map<string, string | null>();
const MAX_RECENT_SUGGESTIONS = 10_000;

function suggestDomain(domain: string, domainHasMail: boolean | null): string | null {
  const key = `${String(domainHasMail)} ${domain}`;
  const recent = recentSuggestions.get(key);
  if (recent !== undefined) return recent;
  const suggested = knownTypoTarget(domain) ?? (domainHasMail === false && !commonProviderSet.has(domain) ? correctDeadDomain(domain) : null);
  if (recentSuggestions.size >= MAX_RECENT_SUGGESTIONS) recentSuggestions.delete(recentSuggestions.keys().next().value as string);
  recentSuggestions.set(key, suggested);
  return suggested;
}

/** The intended domain of one that takes no mail: the nearest common provider, else the spell-checker library's guess (mapped off a look-alike; its suffix held to the same rule). */
function correctDeadDomain(domain: string): string | null {
  const provider = nearestCommonProvider(domain);
  if (provider) return provider;
  const hit = spellChecker.run({ email: `x@${domain}` });
  const guess = hit ? (knownTypoTarget(hit.domain) ?? hit.domain) : null;
  return guess && guess !== domain && isPlausibleTypo(domain, guess) && suffixEdits(splitAtSuffix(domain).suffix, splitAtSuffix(guess).suffix) !== null ? guess : null;
}

/**
 * For an address that failed syntax: when its domain spells a common provider once its dots are
 * repaired (a missing or doubled dot, a comma for a dot: gmailcom, gmail..com, gmail,com), that
 * address on the provider, if it is valid then; else, when its dots were full stops of another
 * script (例子。中国, typed with a Chinese or Japanese input method), the same address with "." for
 * them, if that is valid; else null. Surrounding SP/HTAB are ignored, as parseAddress ignores them
 * (the CLI and the daemon pass a line as typed), and the suggestion is written without them.
 */
export function suggestRepairedAddress(typedEmail: string): string | null {
  const email = trimAddress(typedEmail);
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  const typed = email.slice(at + 1);
  const dotted = typed.replace(new RegExp(OTHER_FULL_STOPS.source, 'g'), '.');
  const domain = dotted.toLowerCase();
  const provider = targetsWithoutDots.get(domain.replace(/[.,]/g, ''));
  const repaired = provider && provider !== domain ? provider : dotted !== typed ? dotted : null;
  if (repaired === null) return null;
  const suggestion = `${email.slice(0, at)}@${repaired}`;
  return parseAddress(suggestion).ok ? suggestion : null;
}

/** A slip of the fingers: at most two edits, and the name did not lose more than one character. */
export function isPlausibleTypo(typed: string, intended: string): boolean {
  return editDistance(typed, intended) <= 2 && intended.length >= typed.length - 1;
}

/**
 * Levenshtein distance (insertions, deletions, substitutions), with adjacent swaps counting as one.
 * With `max`, stops as soon as the distance is sure to exceed it and returns max + 1.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (before[j - 2] as number) + 1);
      row[j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    before = prev;
    prev = row;
  }
  return prev[b.length] as number;
}
