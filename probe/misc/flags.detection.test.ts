import { describe, expect, it } from 'vitest';
import { isDisposableDomain, ownedSuffixes } from './disposable';
import { isFreeProvider, isKnownProvider } from './free-provider';
import { baseLocalPart, isRoleAccount } from './role-account';

describe('disposable domains (mailchecker)', () => {
  it('flags disposable providers and their sub-domains', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('yopmail.com')).toBe(true);
    expect(isDisposableDomain('foo.mailinator.com')).toBe(true);
  });

  it('does not flag real providers or privacy relays on the allowlist', () => {
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('example.com')).toBe(false);
    expect(isDisposableDomain('duck.com')).toBe(false);
  });

  it('lists a domain and its parents up to the registrable domain', () => {
    expect(ownedSuffixes('a.b.example.co.uk')).toEqual(['a.b.example.co.uk', 'b.example.co.uk', 'example.co.uk']);
    expect(ownedSuffixes('shop.kvitka.pp.ua')).toEqual(['shop.kvitka.pp.ua', 'kvitka.pp.ua']);
    expect(ownedSuffixes('co.uk')).toEqual(['co.uk']);
  });
});

describe('free providers (email-providers)', () => {
  it('flags free mailbox providers', () => {
    for (const d of ['gmail.com', 'yahoo.com', 'outlook.com', 'mac.com', 'gmx.de']) expect(isFreeProvider(d)).toBe(true);
  });

  it('does not call disposable, paid or company domains free', () => {
    expect(isFreeProvider('mailinator.com')).toBe(false);
    expect(isFreeProvider('hey.com')).toBe(false);
    expect(isFreeProvider('acme-widgets.com')).toBe(false);
    expect(isKnownProvider('hey.com')).toBe(true);
  });
});

describe('role accounts (role-based-email-addresses)', () => {
  it('flags role local parts whatever the case or sub-address', () => {
    for (const l of ['info', 'Admin', 'support+eu', 'postmaster', 'sales', '"info"']) expect(isRoleAccount(l)).toBe(true);
  });

  it('does not flag personal local parts', () => {
    for (const l of ['john', 'jane.doe', 'me', 'x1234']) expect(isRoleAccount(l)).toBe(false);
  });

  it('strips quotes and +tags', () => {
    expect(baseLocalPart('"Info+x"')).toBe('info');
  });
});
