// Some catch-alls accept every name yet refuse recipients that look machine-made (long strings, runs
// of digits): a random mailbox of that shape is refused there, the domain then looks like one that
// tells real mailboxes from made-up ones, and every "accepted" would be trusted as deliverable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from './index';
import { randomLocalPart } from './smtp/catch-all';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startMiniHost, type MiniHost } from './testing/address-smtp';

const machineMade = (local: string): boolean => local.length >= 16 || /\d{2,}/.test(local);

let dns: FakeDns;
let host: MiniHost;

beforeAll(async () => {
  host = await startMiniHost('127.0.0.6', 0, (addr) => (machineMade(addr.slice(0, addr.lastIndexOf('@'))) ? '550 5.1.1 User unknown' : '250 2.1.5 ok'));
  dns = await startFakeDns({
    'shapes.test': { mx: [[10, 'mx.shapes.test']] },
    'mx.shapes.test': { a: ['127.0.0.6'] },
  });
});
afterAll(async () => {
  await Promise.all([host.close(), dns.close()]);
});

describe('catch-all that refuses machine-made shapes', () => {
  it('the random mailbox looks like a name: lower-case letters only, shorter than 16', () => {
    for (let i = 0; i < 200; i++) {
      const local = randomLocalPart();
      expect(local).toMatch(/^[a-z]{8,15}$/);
      expect(machineMade(local)).toBe(false);
    }
  });

  it('is still seen as a catch-all: a name it accepts is risky/catch_all, never deliverable', async () => {
    const v = createVerifier({
      dnsServers: [dns.server],
      dnsTimeoutMs: 2000,
      smtpPort: host.port,
      heloName: 'probe.test',
      allowPrivateNetworks: true,
      connectTimeoutMs: 2000,
      bannerTimeoutMs: 2000,
      replyTimeoutMs: 2000,
    });
    try {
      const r = await v.verify('jane.doe@shapes.test');
      expect(`${r.verdict}/${r.reason}`).toBe('risky/catch_all');
      expect(r.catch_all).toBe(true);
    } finally {
      await v.close();
    }
  });
});
