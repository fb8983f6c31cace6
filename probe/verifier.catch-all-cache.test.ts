// The verifier's catch-all cache keeps what the random mailbox said at each MX address, and that
// answer holds at that address only: a backup that accepts everyone does not make the primary's
// "accepted" answers catch-all later, and an answer read from the cache does not renew itself.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createVerifier, type ProbeOptions } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startMiniHost, type MiniHost } from './testing/address-smtp';

let dns: FakeDns;
let a: MiniHost; // refuses unknown recipients
let b: MiniHost; // accepts every recipient
let toggled: MiniHost; // catch-all at first, later refuses unknown recipients
let toggledCatchAll = true;

beforeAll(async () => {
  // A answers alice a little slowly (a busy mailbox lookup), so B's answer to the random mailbox is in first.
  a = await startMiniHost('127.0.0.1', 0, (addr) => (addr.startsWith('alice@') ? '250 2.1.5 ok' : '550 5.1.1 User unknown'), (addr) => (addr.startsWith('alice@') ? 300 : 0));
  b = await startMiniHost('127.0.0.2', a.port, () => '250 2.1.5 ok');
  toggled = await startMiniHost('127.0.0.3', a.port, (addr) => (toggledCatchAll || addr.startsWith('alice@') ? '250 2.1.5 ok' : '550 5.1.1 User unknown'));
  dns = await startFakeDns({
    'split.test': { mx: [[10, 'a.split.test'], [10, 'b.split.test']] },
    'a.split.test': { a: ['127.0.0.1'] },
    'b.split.test': { a: ['127.0.0.2'] },
    'toggle.test': { mx: [[10, 'mx.toggle.test']] },
    'backup.test': { mx: [[10, 'mx1.backup.test'], [20, 'mx2.backup.test']] },
    'mx1.backup.test': { a: ['127.0.0.4'] },
    'mx2.backup.test': { a: ['127.0.0.5'] },
    'mx.toggle.test': { a: ['127.0.0.3'] },
  });
});
afterAll(async () => {
  await Promise.all([a.close(), b.close(), toggled.close(), dns.close()]);
});
afterEach(() => vi.restoreAllMocks());

const opts = (): ProbeOptions => ({
  dnsServers: [dns.server],
  dnsTimeoutMs: 2000,
  smtpPort: a.port,
  heloName: 'probe.test',
  allowPrivateNetworks: true,
  connectTimeoutMs: 2000,
  bannerTimeoutMs: 2000,
  replyTimeoutMs: 2000,
});

describe('catch-all cache', () => {
  it('does not apply one MX address\'s "accepts everyone" to another address that refused the random mailbox', async () => {
    const v = createVerifier(opts());
    const first = await v.verify('alice@split.test');
    const second = await v.verify('alice@split.test');
    await v.close();
    // Same server, same mailbox, same answer ("250") and the same server refused the random mailbox
    // in the first call: the verdict must not change just because the answer is now cached.
    expect(second.evidence.mx_ip).toBe(first.evidence.mx_ip);
    expect(`${second.verdict}/${second.reason}`).toBe(`${first.verdict}/${first.reason}`);
  });

  it('does not apply a backup MX\'s "accepts everyone" to the primary once the primary is back', async () => {
    const backup = await startMiniHost('127.0.0.5', a.port, () => '250 2.1.5 ok'); // store-and-forward backup
    const realNow = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    const v = createVerifier(opts());
    // The primary (127.0.0.4) is down for a moment: the backup answers, and it accepts everyone (right: catch_all).
    const first = await v.verify('alice@backup.test');
    expect(first.evidence.mx_ip).toBe('127.0.0.5');
    expect(`${first.verdict}/${first.reason}`).toBe('risky/catch_all');
    // The primary is back (it refuses unknown recipients); 6 min later (past the 5-min unreachable memory).
    const primary = await startMiniHost('127.0.0.4', a.port, (addr) => (addr.startsWith('alice@') ? '250 2.1.5 ok' : '550 5.1.1 User unknown'));
    offset = 6 * 60_000;
    const second = await v.verify('alice@backup.test');
    await v.close();
    await Promise.all([backup.close(), primary.close()]);
    // Accepted by the primary, which has never been asked the random mailbox: the backup's answer
    // must not make it catch-all (probe-domain.ts asks the random mailbox there instead).
    expect(second.evidence.mx_ip).toBe('127.0.0.4');
    expect(`${second.verdict}/${second.reason}`).toBe('deliverable/accepted');
  });

  it('expires a cached catch-all answer one cache period after the random mailbox was last asked', async () => {
    const realNow = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    const v = createVerifier(opts());
    const first = await v.verify('alice@toggle.test'); // the server accepts everyone: catch-all, cached for 1 h
    expect(`${first.verdict}/${first.reason}`).toBe('risky/catch_all');
    toggledCatchAll = false; // the domain leaves Internal Relay / fixes its config
    offset = 50 * 60_000; // 50 min later: still within the hour, the cached answer is used (fine)
    const second = await v.verify('alice@toggle.test');
    expect(`${second.verdict}/${second.reason}`).toBe('risky/catch_all');
    offset = 70 * 60_000; // 70 min after the only random-mailbox check: the answer must have expired
    const randomBefore = toggled.rcpts.filter((r) => !r.startsWith('alice@')).length;
    const third = await v.verify('alice@toggle.test');
    const randomAsked = toggled.rcpts.filter((r) => !r.startsWith('alice@')).length - randomBefore;
    await v.close();
    expect(randomAsked).toBe(1);
    expect(`${third.verdict}/${third.reason}`).toBe('deliverable/accepted');
  });
});
