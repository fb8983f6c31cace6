// Regression tests: role, free-provider and disposable flags from the maintained lists.
import { describe, expect, it } from 'vitest';
import { loadList } from '../data/load-list';
import { hasDisposableMailServer, isDisposableDomain } from './disposable';
import { isFreeProvider } from './free-provider';
import { isRoleAccount } from './role-account';

describe('disposable detection', () => {
  it('does not call a domain disposable because its public suffix (PSL) is on the list', () => {
    // pp.ua, msk.ru, nom.za and za.com are second-level registries (Public Suffix List): each name
    // below is its own registration, by its own owner.
    const names = ['kvitka.pp.ua', 'stroygrad.msk.ru', 'smith.nom.za', 'acme.za.com'];
    expect(names.filter(isDisposableDomain)).toEqual([]);
  });

  it('does not call a national university or a long-established webmail provider disposable', () => {
    // National University of Singapore; TOM Online's webmail (mail.tom.com), a free provider since 1999.
    expect(['nus.edu.sg', 'tom.com'].filter(isDisposableDomain)).toEqual([]);
  });

  it('calls a domain disposable by its mail server only when that server is a throw-away provider\'s', () => {
    expect(hasDisposableMailServer(['mail.mailinator.com'])).toBe(true);
    // Listed upstream, but their MX hosts receive mail for many real domains (Yandex 360, forwarding).
    expect(hasDisposableMailServer(['mx.yandex.net', 'mx1.improvmx.com', 'mx1.forwardemail.net', 'mx1.simplelogin.co'])).toBe(false);
  });
});

describe('role accounts', () => {
  it('does not flag common first names and surnames as role accounts', () => {
    const names = ['alexa', 'sydney', 'paris', 'india', 'gardner', 'denver'];
    expect(names.filter(isRoleAccount)).toEqual([]);
  });

  it('still flags the two-letter department mailboxes companies publish (ap@, cs@, ir@, bd@, rh@)', () => {
    const departments = ['ap', 'cs', 'ir', 'bd', 'rh', 'pm', 'ta'];
    expect(departments.filter((d) => !isRoleAccount(d))).toEqual([]);
  });
});

describe('free providers', () => {
  it('does not report a registered look-alike of a big provider (data/typo-domains.txt) as a free mailbox provider', () => {
    const typos = loadList('typo-domains.txt').map((line) => line.split(/\s+/)[0] ?? '');
    expect(typos.filter(isFreeProvider)).toEqual([]);
  });

  it('does not report a company domain as a free mailbox provider', () => {
    expect(isFreeProvider('facebook.com')).toBe(false);
  });
});
