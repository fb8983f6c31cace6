// Free mailbox providers from email-providers' maintained list. That list also holds disposable
// services, which we report as disposable instead; a few paid services are allowlisted out.
import { createRequire } from 'node:module';
import { loadList } from '../data/load-list';
import { isDisposableDomain } from './disposable';

const require = createRequire(import.meta.url);
const providers = new Set(require('email-providers/all.json') as string[]);
const notFree = new Set(loadList('not-free-provider.txt'));

/** True when the domain is a known mailbox provider (free or not): a real domain, never a typo. */
export function isKnownProvider(domain: string): boolean {
  return providers.has(domain.toLowerCase());
}

export function isFreeProvider(domain: string): boolean {
  const d = domain.toLowerCase();
  return providers.has(d) && !notFree.has(d) && !isDisposableDomain(d);
}
