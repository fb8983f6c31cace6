// Free mailbox providers from email-providers' maintained list. That list also holds disposable
// services, which we report as disposable instead, and registered look-alikes of big providers
// (gmial.com, gmail.co: data/typo-domains.txt), which are nobody's mailbox provider; a few paid
// services and company domains are listed out (data/not-free-provider.txt).
import { createRequire } from 'node:module';
import { loadList } from '../data/load-list';
import { knownTypoTarget } from '../syntax/suggest-domain';
import { isDisposableDomain } from './disposable';

const require = createRequire(import.meta.url);
const providers = new Set(require('email-providers/all.json') as string[]);
const notFree = new Set(loadList('not-free-provider.txt'));

/** True when the domain is a known mailbox provider (free or not): a real domain, never a typo. */
export function isKnownProvider(domain: string): boolean {
  return providers.has(domain.toLowerCase()) && knownTypoTarget(domain) === null;
}

export function isFreeProvider(domain: string): boolean {
  const d = domain.toLowerCase();
  return isKnownProvider(d) && !notFree.has(d) && !isDisposableDomain(d);
}
