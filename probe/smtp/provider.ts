// Who runs a domain's mail servers, from what they answer: the greeting (banner and EHLO) names the
// software; the MX host names are only a hint. What a provider can reveal decides how far an
// answer may be trusted (probe/SCORING.md "Providers"):
// - Microsoft 365 with directory-based edge blocking refuses unknown recipients at RCPT with
//   `550 5.4.1 Recipient address rejected: Access denied` (conclusive, reply-codes.ts); in Internal
//   Relay it accepts every address (the random mailbox too: catch-all).
// - Security gateways (Proofpoint, Mimecast, Barracuda) often accept every recipient at RCPT and
//   decide later, or refuse by policy codes: unless the random mailbox is refused as unknown, the
//   mailbox cannot be verified there (reason security_gateway).
import type { SmtpReply } from '../contract';

export type Provider = 'microsoft365' | 'proofpoint' | 'mimecast' | 'barracuda';

/** Providers that sit in front of the real mailboxes and answer by policy. */
export const SECURITY_GATEWAYS: ReadonlySet<Provider> = new Set(['proofpoint', 'mimecast', 'barracuda']);

export const PROVIDER_NAMES: Record<Provider, string> = {
  microsoft365: 'Microsoft 365',
  proofpoint: 'Proofpoint',
  mimecast: 'Mimecast',
  barracuda: 'Barracuda',
};

const SIGNS: readonly { provider: Provider; mx: RegExp; greeting: RegExp }[] = [
  // Exchange Online names itself by its host (…mail.protection.outlook.com, …prod.outlook.com); the
  // "Microsoft ESMTP MAIL Service" banner alone is any Exchange server, on-premise ones included.
  { provider: 'microsoft365', mx: /\.mail\.protection\.outlook\.(?:com|de|cn)$/i, greeting: /\.(?:mail\.protection\.outlook\.(?:com|de|cn)|prod\.outlook\.com)\b(?![.-])/i },
  { provider: 'proofpoint', mx: /\.(?:pphosted\.com|ppe-hosted\.com|ppops\.net)$/i, greeting: /pphosted\.com|ppe-hosted\.com|ppops\.net|proofpoint/i },
  { provider: 'mimecast', mx: /\.mimecast(?:-offshore)?\.(?:com|co\.za)$/i, greeting: /mimecast/i },
  { provider: 'barracuda', mx: /\.barracudanetworks\.com$/i, greeting: /barracuda/i },
];

/** What each greeting reply names: a session's banner and EHLO replies are shared by all its recipients' evidence. */
const named = new WeakMap<SmtpReply, Provider | null>();

/** The provider a greeting (banner or EHLO reply) names, if any. */
export function providerFromGreeting(replies: readonly SmtpReply[]): Provider | null {
  for (const r of replies) {
    if (r.stage !== 'banner' && r.stage !== 'ehlo') continue;
    let provider = named.get(r);
    if (provider === undefined) {
      provider = SIGNS.find((s) => s.greeting.test(r.text))?.provider ?? null;
      named.set(r, provider);
    }
    if (provider) return provider;
  }
  return null;
}

/** The provider the MX host names suggest (a hint only: a name proves nothing about behaviour). */
export function providerFromMxNames(hosts: readonly string[]): Provider | null {
  for (const h of hosts) {
    const sign = SIGNS.find((s) => s.mx.test(h.replace(/\.$/, '')));
    if (sign) return sign.provider;
  }
  return null;
}

export function isSecurityGateway(p: Provider | null): boolean {
  return p !== null && SECURITY_GATEWAYS.has(p);
}
