// Disposable-domain detection from mailchecker's maintained list, checked for the domain and each
// parent up to its registrable domain (sub.mailinator.com is disposable too), minus our allowlist.
// The climb stops at the registrable domain (Public Suffix List): mailchecker also lists public
// suffixes (pp.ua, msk.ru, nom.za, za.com, ddns.net …) that throw-away services once used, and a
// listed suffix must never flag the unrelated names registered under it.
import { createRequire } from 'node:module';
import { loadList } from '../data/load-list';
import { registrableDomain } from '../dns/registrable-domain';

const require = createRequire(import.meta.url);
const mailchecker = require('mailchecker/platform/node') as { blacklist(): Set<string> };

const blocklist = mailchecker.blacklist();
const allowlist = new Set(loadList('not-disposable.txt'));

/**
 * `domain` and its parents up to its registrable domain: a.b.example.co.uk → a.b.example.co.uk,
 * b.example.co.uk, example.co.uk. Just `domain` when it has no registrable domain (a public suffix).
 */
export function ownedSuffixes(domain: string): string[] {
  const labels = domain.toLowerCase().split('.');
  const registrable = registrableDomain(domain);
  const count = registrable === null ? 1 : labels.length - registrable.split('.').length + 1;
  return labels.slice(0, count).map((_, i) => labels.slice(i).join('.'));
}

export function isDisposableDomain(domain: string): boolean {
  for (const suffix of ownedSuffixes(domain)) {
    if (allowlist.has(suffix)) return false;
    if (blocklist.has(suffix)) return true;
  }
  return false;
}

/** True when any of the domain's mail servers belongs to a disposable provider (MX mail.mailinator.com). */
export function hasDisposableMailServer(mxHosts: readonly string[]): boolean {
  return mxHosts.some(isDisposableDomain);
}
