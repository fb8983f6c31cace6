// Verifier options for a test's mail world on loopback (its DNS server and SMTP port) with short timeouts.
import type { ProbeOptions } from '../types';

export function loopbackOptions(dnsServer: string, smtpPort: number, over: Partial<ProbeOptions> = {}): ProbeOptions {
  return {
    dnsServers: [dnsServer],
    dnsTimeoutMs: 2000,
    smtpPort,
    heloName: 'probe.test',
    allowPrivateNetworks: true,
    connectTimeoutMs: 2000,
    bannerTimeoutMs: 2000,
    replyTimeoutMs: 2000,
    ...over,
  };
}
