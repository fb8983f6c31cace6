import { describe, expect, it } from 'vitest';
import { isSecurityGateway, providerFromGreeting, providerFromMxNames } from './provider';

const banner = (text: string) => [{ stage: 'banner', code: 220, enhanced: null, text }];

describe('who runs the mail servers', () => {
  it('reads the provider from the greeting', () => {
    expect(providerFromGreeting(banner('AM4PEPF00027A5F.mail.protection.outlook.com Microsoft ESMTP MAIL Service ready at Mon, 23 Nov 2026 09:00:00 +0000'))).toBe('microsoft365');
    expect(providerFromGreeting(banner('mx0a-00123401.pphosted.com ESMTP mfa-m0001234.ppops.net'))).toBe('proofpoint');
    expect(providerFromGreeting(banner("eu-smtp-inbound-1.mimecast.com ESMTP mimecast.com - the world's most secure email service"))).toBe('mimecast');
    expect(providerFromGreeting(banner('d42.ess.barracudanetworks.com ESMTP (Barracuda Email Security Gateway)'))).toBe('barracuda');
    expect(providerFromGreeting(banner('mx.example.com ESMTP Postfix'))).toBeNull();
  });

  it('only looks at greetings, never at RCPT texts (a user could be called "barracuda")', () => {
    expect(providerFromGreeting([{ stage: 'rcpt', code: 250, enhanced: '2.1.5', text: 'barracuda@example.com ok' }])).toBeNull();
  });

  it('takes MX host names as a hint', () => {
    expect(providerFromMxNames(['contoso-com.mail.protection.outlook.com'])).toBe('microsoft365');
    expect(providerFromMxNames(['mx0b-00123401.pphosted.com.'])).toBe('proofpoint');
    expect(providerFromMxNames(['us-smtp-inbound-1.mimecast.com'])).toBe('mimecast');
    expect(providerFromMxNames(['d123.ess.barracudanetworks.com'])).toBe('barracuda');
    expect(providerFromMxNames(['mail.outlook.com.example.net', 'mx.pphosted.com.evil.test'])).toBeNull();
  });

  it('calls Proofpoint, Mimecast and Barracuda security gateways, not Microsoft 365', () => {
    expect(['proofpoint', 'mimecast', 'barracuda'].every((p) => isSecurityGateway(p as never))).toBe(true);
    expect(isSecurityGateway('microsoft365')).toBe(false);
    expect(isSecurityGateway(null)).toBe(false);
  });
});
