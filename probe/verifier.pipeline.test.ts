import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationResultSchema, type VerificationResult } from './contract';
import { createVerifier, type ProbeOptions } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp, type RunningServer } from './testing/fake-smtp';
import { loopbackOptions } from './testing/loopback-options';

let dns: FakeDns;
let smtp: RunningServer & { commandsSeen: string[][] };

beforeAll(async () => {
  dns = await startFakeDns({
    'shop.test': { mx: [[10, 'mx.shop.test']] },
    'mx.shop.test': { a: ['127.0.0.1'] },
    'catchall.test': { mx: [[10, 'mx.catchall.test']] },
    'mx.catchall.test': { a: ['127.0.0.1'] },
    'private.test': { mx: [[10, 'mx.private.test']] },
    'mx.private.test': { a: ['10.0.0.5'] },
    'nullmx.test': { mx: [[0, '']] },
    'servfail.test': { behaviour: 'servfail' },
    'mailinator.com': { mx: [[10, 'mx.shop.test']] },
  });
  smtp = await startScriptedSmtp({
    reply: (line) => {
      if (line.startsWith('EHLO')) return '250-fake\r\n250 PIPELINING';
      if (line.startsWith('RCPT')) {
        const addr = /<([^>]*)>/.exec(line)?.[1] ?? '';
        if (addr.endsWith('@catchall.test')) return '250 ok';
        if (addr.startsWith('full@')) return '552 5.2.2 Mailbox full';
        if (addr.startsWith('blocked@')) return '550 5.7.1 Blocked by policy';
        return /^(alice|info|Alice)@/.test(addr) ? '250 2.1.5 ok' : '550 5.1.1 User unknown';
      }
      return line.startsWith('QUIT') ? '221 bye' : '250 ok';
    },
  });
});
afterAll(async () => {
  await smtp.close();
  await dns.close();
});

const opts = (o: Partial<ProbeOptions> = {}): ProbeOptions => loopbackOptions(dns.server, smtp.port, o);

async function collect(it: AsyncIterable<VerificationResult>): Promise<Map<string, VerificationResult>> {
  const out = new Map<string, VerificationResult>();
  for await (const r of it) out.set(r.email, verificationResultSchema.parse(r));
  return out;
}

describe('verifier pipeline', () => {
  it('verifies a batch with one SMTP session per domain and contract-shaped results', async () => {
    const v = createVerifier(opts());
    const before = smtp.counters.connections;
    const emails = ['alice@shop.test', 'bob@shop.test', 'info@shop.test', 'full@shop.test', 'blocked@shop.test', 'Alice@SHOP.test', 'a@catchall.test', 'not an address', 'x@nullmx.test', 'x@servfail.test'];
    const r = await collect(v.verifyBatch(emails));
    expect(r.size).toBe(emails.length);
    const vr = (e: string) => `${r.get(e)?.verdict}/${r.get(e)?.reason}`;
    expect(vr('alice@shop.test')).toBe('deliverable/accepted');
    expect(vr('bob@shop.test')).toBe('undeliverable/mailbox_not_found');
    expect(vr('info@shop.test')).toBe('deliverable/accepted');
    expect(r.get('info@shop.test')?.role).toBe(true);
    expect(vr('full@shop.test')).toBe('risky/mailbox_full');
    expect(vr('blocked@shop.test')).toBe('unknown/policy_block');
    expect(vr('Alice@SHOP.test')).toBe('deliverable/accepted');
    expect(vr('a@catchall.test')).toBe('risky/catch_all');
    expect(vr('not an address')).toBe('undeliverable/syntax');
    expect(vr('x@nullmx.test')).toBe('undeliverable/null_mx');
    expect(vr('x@servfail.test')).toBe('unknown/dns_error');
    expect(smtp.counters.connections - before).toBe(1); // shop.test and catchall.test share their MX address, and a session
    const alice = r.get('alice@shop.test');
    expect(alice).toMatchObject({ result: 'valid', normalized: 'alice@shop.test', catch_all: false, mx_hosts: ['mx.shop.test'], is_syntax_valid: true, is_dns_valid: true, is_mx_valid: true, is_smtp_valid: true, score: 100 });
    expect(alice?.evidence).toMatchObject({ depth: 'smtp', mx_host: 'mx.shop.test', mx_ip: '127.0.0.1', retries: 0 });
    expect(alice?.evidence.replies.map((x) => x.stage)).toEqual(['banner', 'ehlo', 'mail', 'rcpt', 'rcpt_random']);
    expect(v.stats()).toMatchObject({ sessions: 1, maxConcurrentPerIp: 1 });
    await v.close();
  });

  it('stops after syntax or DNS at the lower depths', async () => {
    const v = createVerifier(opts());
    const before = smtp.counters.connections;
    expect(await v.verify('alice@shop.test', { depth: 'syntax' })).toMatchObject({ verdict: 'unknown', reason: 'smtp_not_checked', mx_hosts: [], is_dns_valid: false });
    expect(await v.verify('alice@shop.test', { depth: 'mx' })).toMatchObject({ verdict: 'unknown', result: 'risky', reason: 'smtp_not_checked', mx_hosts: ['mx.shop.test'], is_mx_valid: true });
    expect(await v.verify('x@nullmx.test', { depth: 'mx' })).toMatchObject({ verdict: 'undeliverable', reason: 'null_mx' });
    expect(await v.verify('x@mailinator.com', { depth: 'mx' })).toMatchObject({ verdict: 'risky', reason: 'disposable', disposable: true });
    expect(smtp.counters.connections).toBe(before);
    await v.close();
  });

  it('refuses private mail servers unless allowed', async () => {
    const v = createVerifier(opts({ allowPrivateNetworks: false }));
    const r = await v.verify('alice@shop.test');
    expect(r).toMatchObject({ verdict: 'unknown', reason: 'blocked_address', mx_hosts: ['mx.shop.test'] });
    expect(r.evidence.detail).toMatch(/127\.0\.0\.1/);
    expect((await v.verify('a@private.test')).reason).toBe('blocked_address');
    await v.close();
  });

  it('suggests a fix for a typo domain that takes no mail', async () => {
    const v = createVerifier(opts());
    expect(await v.verify('john@gmali.com')).toMatchObject({ verdict: 'undeliverable', reason: 'no_domain', suggestion: 'john@gmail.com' });
    await v.close();
  });

  it('remembers catch-all per domain and reuses the DNS cache (warm check)', async () => {
    const v = createVerifier(opts());
    await v.verify('alice@shop.test');
    const queries = dns.queries.length;
    const rcptsBefore = v.stats().rcpts;
    const warm = await v.verify('alice@shop.test');
    expect(warm.reason).toBe('accepted');
    expect(dns.queries.length).toBe(queries);
    expect(v.stats().rcpts - rcptsBefore).toBe(1); // no random mailbox the second time
    await v.close();
  });

  it('fills domain age from RDAP, but never waits long for a slow RDAP server', async () => {
    const http = await import('node:http');
    let slow = false;
    const rdap = http.createServer((_req, res) => {
      if (slow) return; // never answers
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ events: [{ eventAction: 'registration', eventDate: new Date(Date.now() - 10 * 86_400_000).toISOString() }] }));
    });
    await new Promise<void>((r) => rdap.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(rdap.address() as import('node:net').AddressInfo).port}`;
    const v = createVerifier(opts({ rdapBaseUrl: base }));
    const young = await v.verify('alice@shop.test');
    expect(young.domain_age_days).toBe(10);
    expect(young.score).toBe(80); // 100 − 20 for a domain younger than 30 days
    await v.close();
    slow = true;
    const v2 = createVerifier(opts({ rdapBaseUrl: base, rdapTimeoutMs: 5000 }));
    const t = Date.now();
    const r = await v2.verify('alice@shop.test');
    expect(r.domain_age_days).toBeNull();
    expect(Date.now() - t).toBeLessThan(1500);
    await v2.close();
    rdap.closeAllConnections();
    await new Promise((r2) => rdap.close(r2));
  });

  it("lets other work through while it sets up a big batch (syntax of every address, every domain's start)", async () => {
    const v = createVerifier(opts());
    // 30,000 addresses on 3,000 domains at depth syntax: tens of ms of setup on any machine.
    const emails = Array.from({ length: 30_000 }, (_, i) => `user.${i}@domain-${i % 3000}.test`);
    const seen: string[] = [];
    let ticked = -1;
    setImmediate(() => (ticked = seen.length)); // I/O, timers and other requests wait for the same turn
    for await (const r of v.verifyBatch(emails, { depth: 'syntax' })) seen.push(r.email);
    expect(new Set(seen).size).toBe(emails.length);
    // Held in one piece, the setup would have let the turn come only after the last result.
    expect(ticked).toBeGreaterThanOrEqual(0);
    expect(ticked).toBeLessThan(emails.length);
    await v.close();
  });

  it('cancels in-flight work when the caller aborts', async () => {
    const slow = await startScriptedSmtp({ banner: null, reply: () => '250 ok' });
    const v = createVerifier(opts({ smtpPort: slow.port, bannerTimeoutMs: 5000 }));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t = Date.now();
    await expect(collect(v.verifyBatch(['alice@shop.test'], { signal: ac.signal }))).rejects.toThrow(/aborted/);
    expect(Date.now() - t).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 50));
    expect(slow.counters.current).toBe(0);
    await v.close();
    await slow.close();
  });
});
