// The registrable domain of a name (Public Suffix List, via tldts): the part one owner registered,
// one label below its public suffix. mail.acme.co.uk → acme.co.uk; kvitka.pp.ua → kvitka.pp.ua (pp.ua
// is a second-level registry). The PSL's private section counts too (ddns.net, za.com): each name under
// them belongs to its own owner, so nothing about the suffix is inherited by them.
import { getDomain } from 'tldts';

/** The registrable domain of `domain`, or null when it has none (it is a public suffix itself, or no domain). */
export function registrableDomain(domain: string): string | null {
  return getDomain(domain.toLowerCase(), { allowPrivateDomains: true });
}
