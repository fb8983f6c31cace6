// Disposable-domain detection from mailchecker's maintained list, checked for the domain and each
// parent domain (sub.mailinator.com is disposable too), minus our allowlist of privacy relays.
import { createRequire } from 'node:module';
import { loadList } from '../data/load-list';

const require = createRequire(import.meta.url);
const mailchecker = require('mailchecker/platform/node') as { blacklist(): Set<string> };

const blocklist = mailchecker.blacklist();
const allowlist = new Set(loadList('not-disposable.txt'));

/** Every suffix of `a.b.c` that is itself a domain: a.b.c, b.c, c. */
export function domainSuffixes(domain: string): string[] {
  const labels = domain.split('.');
  return labels.map((_, i) => labels.slice(i).join('.'));
}

export function isDisposableDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  for (const suffix of domainSuffixes(d)) {
    if (allowlist.has(suffix)) return false;
    if (blocklist.has(suffix)) return true;
  }
  return false;
}
