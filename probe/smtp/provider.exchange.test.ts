// Microsoft 365 is named by its host in the greeting (…mail.protection.outlook.com), not by the
// "Microsoft ESMTP MAIL Service" banner every Exchange server sends, nor by a host that merely contains ".outlook.com".
import { describe, expect, it } from 'vitest';
import { providerFromGreeting, providerFromMxNames } from './provider';

const banner = (text: string) => [{ stage: 'banner', code: 220, enhanced: null, text }];

describe('Microsoft 365 from the greeting', () => {
  it('an on-premise Exchange server is not Microsoft 365', () => {
    // Exchange Server 2016/2019 on-premise default banner (no *.mail.protection.outlook.com host name)
    expect(providerFromGreeting(banner('mail.contoso.com Microsoft ESMTP MAIL Service ready at Tue, 3 Sep 2024 10:00:00 +0200'))).toBeNull();
  });

  it('a non-Microsoft server whose host name merely contains ".outlook.com" is not Microsoft 365', () => {
    // provider.classify.test.ts already pins this very name as NOT Microsoft when it is an MX name…
    expect(providerFromMxNames(['mail.outlook.com.example.net'])).toBeNull();
    // …but the same server's own Postfix greeting is read as Microsoft 365.
    expect(providerFromGreeting(banner('mail.outlook.com.example.net ESMTP Postfix (Debian/GNU)'))).toBeNull();
  });
});
