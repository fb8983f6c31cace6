// Self-tests of the simulated mail internet: its DNS, SMTP hosts, counters and ground truth,
// talked to directly (no verifier involved).
import { Resolver } from 'node:dns/promises';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScenarios, generateBulkDomains, startMailWorld, type MailWorld } from './index';
import { SmtpTestClient } from './smtp-test-client';

let world: MailWorld;
let resolver: Resolver;
const scenarios = buildScenarios({ greylistMs: 250, tarpitMs: 300, rcptLimit: 3, connLimit: 2 });

async function errCode(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
}

async function session(host: string): Promise<SmtpTestClient> {
  const c = await SmtpTestClient.connect(host, world.smtpPort);
  const banner = await c.read();
  expect(banner?.code).toBe(220);
  return c;
}

/** A session past EHLO and MAIL FROM:<from>, ready for RCPTs. */
async function mailSession(host: string, from = 'a@probe.test'): Promise<SmtpTestClient> {
  const c = await session(host);
  await c.cmd('EHLO probe.test');
  await c.cmd(`MAIL FROM:<${from}>`);
  return c;
}

/** The first line of the reply to RCPT TO:<address>. */
async function rcptLine(c: SmtpTestClient, address: string): Promise<string | undefined> {
  return (await c.cmd(`RCPT TO:<${address}>`))?.lines[0];
}

beforeAll(async () => {
  world = await startMailWorld({ domains: scenarios });
  resolver = new Resolver({ timeout: 300, tries: 1 });
  resolver.setServers([world.dnsServer]);
});
afterAll(async () => {
  await world.stop();
});

describe('mail world DNS', () => {
  it('serves MX records by priority with A records for the hosts', async () => {
    const mx = await resolver.resolveMx('dead-primary.mailworld.test');
    expect(mx.sort((a, b) => a.priority - b.priority)).toEqual([
      { exchange: 'mx1.dead-primary.mailworld.test', priority: 10 },
      { exchange: 'mx2.dead-primary.mailworld.test', priority: 20 },
    ]);
    expect(await resolver.resolve4('mx2.dead-primary.mailworld.test')).toEqual(['127.77.12.2']);
  });

  it('answers null MX, implicit MX, no MX, NXDOMAIN, SERVFAIL and timeouts as specified', async () => {
    expect(await resolver.resolveMx('null-mx.mailworld.test')).toEqual([{ exchange: '', priority: 0 }]);
    expect(await errCode(resolver.resolveMx('implicit-mx.mailworld.test'))).toBe('ENODATA');
    expect(await resolver.resolve4('implicit-mx.mailworld.test')).toEqual(['127.77.14.1']);
    expect(await errCode(resolver.resolveMx('no-mx.mailworld.test'))).toBe('ENODATA');
    expect(await errCode(resolver.resolve4('no-mx.mailworld.test'))).toBe('ENODATA');
    expect(await errCode(resolver.resolveMx('nxdomain.mailworld.test'))).toBe('ENOTFOUND');
    expect(await errCode(resolver.resolveMx('never-heard-of.example'))).toBe('ENOTFOUND');
    expect(await errCode(resolver.resolveMx('servfail.mailworld.test'))).toBe('ESERVFAIL');
    expect(await errCode(resolver.resolveMx('dns-timeout.mailworld.test'))).toBe('ETIMEOUT');
    expect(await errCode(resolver.resolve4('mx1.dns-timeout.mailworld.test'))).toBe('ETIMEOUT');
    expect(await errCode(resolver.resolve6('mx1.normal.mailworld.test'))).toBe('ENODATA');
    expect(world.probeEnv().PROBE_DNS_SERVERS).toBe(world.dnsServer);
  });

  it('answers over TCP on the same port', async () => {
    const resolve = dns2.TCPClient({ dns: '127.0.0.1', port: world.dnsPort });
    const res = await resolve('normal.mailworld.test', 'MX');
    expect(res.answers.map((a) => a.exchange)).toEqual(['mx1.normal.mailworld.test']);
  });

  it('lists DNSBL-listed hosts in its DNSBL zone', async () => {
    expect(await resolver.resolve4(`1.25.77.127.${world.dnsblZone}`)).toEqual(['127.0.0.2']);
    expect(await errCode(resolver.resolve4(`1.1.77.127.${world.dnsblZone}`))).toBe('ENOTFOUND');
  });

  it('serves RDAP registration dates', async () => {
    const res = await fetch(`${world.rdapUrl}/domain/normal.mailworld.test`);
    const body = (await res.json()) as { events: { eventAction: string }[] };
    expect(body.events[0]?.eventAction).toBe('registration');
    expect((await fetch(`${world.rdapUrl}/domain/nope.example`)).status).toBe(404);
  });

  it('answers RDAP with the exact body, the date ten years (or registeredDaysAgo) before now, asked again and in any case', async () => {
    const young = await startMailWorld({ domains: [{ domain: 'Young.test', scenario: 'young', registeredDaysAgo: 3, mx: [], addresses: [] }] });
    try {
      for (const [url, name, days] of [
        [`${world.rdapUrl}/domain/normal.mailworld.test`, 'normal.mailworld.test', 3650],
        [`${world.rdapUrl}/domain/NORMAL.mailworld.test`, 'normal.mailworld.test', 3650],
        [`${world.rdapUrl}/domain/normal%2Emailworld.test?x=1`, 'normal.mailworld.test', 3650],
        [`${young.rdapUrl}/domain/young.test`, 'Young.test', 3],
        [`${young.rdapUrl}/domain/young.test`, 'Young.test', 3],
      ] as const) {
        const before = Date.now();
        const res = await fetch(url);
        const text = await res.text();
        const after = Date.now();
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/rdap+json');
        const date = (JSON.parse(text) as { events: { eventDate: string }[] }).events[0]?.eventDate ?? '';
        const t = Date.parse(date) + days * 86_400_000;
        expect(t).toBeGreaterThanOrEqual(before);
        expect(t).toBeLessThanOrEqual(after);
        expect(text).toBe(JSON.stringify({ objectClassName: 'domain', ldhName: name, events: [{ eventAction: 'registration', eventDate: date }] }));
      }
      for (const url of [`${world.rdapUrl}/domain/nxdomain.mailworld.test`, `${world.rdapUrl}/domain/nope.example`, `${world.rdapUrl}/domain/nope.example`, `${world.rdapUrl}/other`]) {
        const res = await fetch(url);
        expect(res.status).toBe(404);
        expect(await res.text()).toBe('{"errorCode":404,"title":"Not Found"}');
      }
      // A malformed percent-encoding is a 400 (it used to throw inside the server), and the server serves on.
      const bad = await fetch(`${world.rdapUrl}/domain/%E0%A4%A`);
      expect(bad.status).toBe(400);
      expect(await bad.text()).toBe('{"errorCode":400,"title":"Bad Request"}');
      expect((await fetch(`${world.rdapUrl}/domain/normal.mailworld.test`)).status).toBe(200);
    } finally {
      await young.stop();
    }
  });
});

describe('mail world SMTP hosts', () => {
  it('accepts existing mailboxes, rejects unknown ones with 550 5.1.1 and refuses relaying', async () => {
    const c = await session('127.77.1.1');
    const ehlo = await c.cmd('EHLO probe.test');
    expect(ehlo?.code).toBe(250);
    expect(ehlo?.lines.join('\n')).toContain('PIPELINING');
    expect((await c.cmd('MAIL FROM:<check@probe.test>'))?.code).toBe(250);
    expect((await c.cmd('RCPT TO:<Alice@normal.mailworld.test>'))?.code).toBe(250);
    const ghost = await c.cmd('RCPT TO:<ghost@normal.mailworld.test>');
    expect(ghost?.code).toBe(550);
    expect(ghost?.lines[0]).toContain('5.1.1');
    expect((await c.cmd('RCPT TO:<alice@catch-all.mailworld.test>'))?.lines[0]).toMatch(/^554 5\.7\.1/);
    expect((await c.cmd('QUIT'))?.code).toBe(221);
    c.close();
  });

  it('answers full, over-quota and disabled mailboxes with their enhanced codes', async () => {
    const c = await mailSession('127.77.7.1', '');
    const expected = { full: /^552 5\.2\.2/, fulltemp: /^452 4\.2\.2/, gone: /^550 5\.2\.1/ };
    for (const [local, reply] of Object.entries(expected)) expect(await rcptLine(c, `${local}@mailbox-states.mailworld.test`)).toMatch(reply);
    c.close();
  });

  it('greylists each triplet until the window has passed', async () => {
    const c = await mailSession('127.77.3.1');
    expect(await rcptLine(c, 'alice@greylist.mailworld.test')).toMatch(/^451 4\.7\.1/);
    expect((await c.cmd('RCPT TO:<alice@greylist.mailworld.test>'))?.code).toBe(451);
    await new Promise((r) => setTimeout(r, 300));
    expect((await c.cmd('RCPT TO:<alice@greylist.mailworld.test>'))?.code).toBe(250);
    // A different MAIL FROM is a new triplet.
    await c.cmd('RSET');
    await c.cmd('MAIL FROM:<b@probe.test>');
    expect((await c.cmd('RCPT TO:<alice@greylist.mailworld.test>'))?.code).toBe(451);
    c.close();
  });

  it('blocks by policy at RCPT and at connect', async () => {
    const c = await mailSession('127.77.5.1');
    expect(await rcptLine(c, 'alice@policy-block.mailworld.test')).toMatch(/^550 5\.7\.1/);
    c.close();
    const b = await SmtpTestClient.connect('127.77.6.1', world.smtpPort);
    expect((await b.read())?.lines[0]).toMatch(/^554 5\.7\.1/);
    expect((await b.cmd('EHLO probe.test'))?.code).toBe(503);
    expect((await b.cmd('QUIT'))?.code).toBe(221);
    b.close();
  });

  it('tarpits the banner, stays silent, refuses, and says 421 when busy', async () => {
    const t0 = Date.now();
    const t = await session('127.77.8.1');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
    t.close();
    const s = await SmtpTestClient.connect('127.77.9.1', world.smtpPort);
    expect(await s.read(300)).toBeNull();
    s.close();
    expect(await errCode(SmtpTestClient.connect('127.77.10.1', world.smtpPort))).toBe('ECONNREFUSED');
    const b = await SmtpTestClient.connect('127.77.11.1', world.smtpPort);
    expect((await b.read())?.lines[0]).toMatch(/^421 4\.3\.2/);
    expect(await b.read()).toBeNull(); // closed
    b.close();
  });

  it('answers 452 4.5.3 beyond the per-session recipient limit and counts RCPTs per session', async () => {
    world.resetCounters();
    const c = await mailSession('127.77.20.1');
    for (const u of ['user01', 'user02', 'user03']) expect(await rcptLine(c, `${u}@rcpt-limit.mailworld.test`)).toMatch(/^250 /);
    expect(await rcptLine(c, 'user04@rcpt-limit.mailworld.test')).toMatch(/^452 4\.5\.3/);
    c.close();
    expect(world.counters.maxRcptsPerSession).toBe(4);
    expect(world.counters.perIp.get('127.77.20.1')?.rcpts).toBe(4);
  });

  it('answers 421 to connections beyond the per-client limit and counts concurrency per IP', async () => {
    world.resetCounters();
    const a = await session('127.77.21.1');
    const b = await session('127.77.21.1');
    const c = await SmtpTestClient.connect('127.77.21.1', world.smtpPort);
    expect((await c.read())?.lines[0]).toMatch(/^421 4\.7\.0/);
    a.close();
    b.close();
    c.close();
    expect(world.counters.maxConcurrentPerIp).toBe(3);
    expect(world.counters.perIp.get('127.77.21.1')?.maxConcurrent).toBe(3);
    expect(world.counters.connections).toBe(3);
  });

  it('offers STARTTLS with its self-signed certificate and requires it before MAIL', async () => {
    const c = await session('127.77.22.1');
    expect((await c.cmd('EHLO probe.test'))?.lines.join('\n')).toContain('STARTTLS');
    expect((await c.cmd('MAIL FROM:<a@probe.test>'))?.lines[0]).toMatch(/^530 5\.7\.0/);
    expect((await c.cmd('STARTTLS'))?.code).toBe(220);
    await c.startTls();
    const ehlo = await c.cmd('EHLO probe.test');
    expect(ehlo?.code).toBe(250);
    expect(ehlo?.lines.join('\n')).not.toContain('STARTTLS');
    expect((await c.cmd('MAIL FROM:<a@probe.test>'))?.code).toBe(250);
    expect((await c.cmd('RCPT TO:<alice@starttls.mailworld.test>'))?.code).toBe(250);
    expect((await c.cmd('RCPT TO:<ghost@starttls.mailworld.test>'))?.code).toBe(550);
    c.close();
    expect(world.counters.tlsUpgrades).toBeGreaterThanOrEqual(1);
  });

  it('rejects EHLO on a HELO-only host and records pipelining without the extension', async () => {
    const h = await session('127.77.23.1');
    expect((await h.cmd('EHLO probe.test'))?.code).toBe(502);
    expect((await h.cmd('HELO probe.test'))?.code).toBe(250);
    h.close();
    world.resetCounters();
    const p = await session('127.77.24.1');
    expect((await p.cmd('EHLO probe.test'))?.lines.join('\n')).not.toContain('PIPELINING');
    p.write('MAIL FROM:<a@probe.test>\r\nRCPT TO:<alice@no-pipelining.mailworld.test>');
    expect((await p.read())?.code).toBe(250);
    expect((await p.read())?.code).toBe(250);
    p.close();
    expect(world.counters.violations.some((v) => v.includes('pipelining'))).toBe(true);
  });
});

describe('mail world reply styles', () => {
  it('speaks multi-line, without enhanced codes, and refuses senders when told to', async () => {
    const m = await SmtpTestClient.connect('127.77.27.1', world.smtpPort);
    expect((await m.read())?.lines).toHaveLength(3);
    await m.cmd('EHLO probe.test');
    await m.cmd('MAIL FROM:<a@probe.test>');
    const multi = await m.cmd('RCPT TO:<ghost@multiline.mailworld.test>');
    expect(multi?.code).toBe(550);
    expect(multi?.lines).toHaveLength(3);
    m.close();
    const l = await session('127.77.28.1');
    expect((await l.cmd('EHLO probe.test'))?.lines.join('\n')).not.toContain('ENHANCEDSTATUSCODES');
    expect((await l.cmd('MAIL FROM:<a@probe.test>'))?.lines).toEqual(['250 Ok']);
    expect((await l.cmd('RCPT TO:<ghost@legacy.mailworld.test>'))?.lines).toEqual(['550 No such user here']);
    l.close();
    const r = await session('127.77.31.1');
    await r.cmd('EHLO probe.test');
    expect((await r.cmd('MAIL FROM:<a@probe.test>'))?.lines[0]).toMatch(/^550 5\.7\.1/);
    r.close();
  });
});

describe('mail world reply delay', () => {
  it('delays every reply by one round trip, and pipelined replies share it', async () => {
    const slow = await startMailWorld({ domains: scenarios.slice(0, 1), replyDelayMs: 60 });
    try {
      let t = Date.now();
      const c = await SmtpTestClient.connect('127.77.1.1', slow.smtpPort);
      expect((await c.read())?.code).toBe(220);
      expect(Date.now() - t).toBeGreaterThanOrEqual(55);
      await c.cmd('EHLO probe.test');
      t = Date.now();
      c.write('MAIL FROM:<a@probe.test>\r\nRCPT TO:<alice@normal.mailworld.test>\r\nRCPT TO:<ghost@normal.mailworld.test>');
      const codes = [(await c.read())?.code, (await c.read())?.code, (await c.read())?.code];
      const elapsed = Date.now() - t;
      expect(codes).toEqual([250, 250, 550]);
      expect(elapsed).toBeGreaterThanOrEqual(55);
      expect(elapsed).toBeLessThan(150);
      c.close();
    } finally {
      await slow.stop();
    }
  });
});

describe('mail world ground truth', () => {
  it('gives every scenario address the verdict and reason DESIGN.md prescribes', () => {
    const t = (email: string): string => {
      const x = world.truth.get(email);
      return `${x?.verdict}/${x?.reason}`;
    };
    expect(t('alice@normal.mailworld.test')).toBe('deliverable/accepted');
    expect(t('ghost@normal.mailworld.test')).toBe('undeliverable/mailbox_not_found');
    expect(world.truth.get('info@normal.mailworld.test')?.role).toBe(true);
    expect(t('whoever@catch-all.mailworld.test')).toBe('risky/catch_all');
    expect(t('alice@greylist.mailworld.test')).toBe('deliverable/accepted');
    expect(t('alice@greylist-forever.mailworld.test')).toBe('unknown/greylisted');
    expect(t('ghost@policy-block.mailworld.test')).toBe('unknown/policy_block');
    expect(t('alice@policy-banner.mailworld.test')).toBe('unknown/policy_block');
    expect(t('full@mailbox-states.mailworld.test')).toBe('risky/mailbox_full');
    expect(t('fulltemp@mailbox-states.mailworld.test')).toBe('risky/mailbox_full');
    expect(t('gone@mailbox-states.mailworld.test')).toBe('undeliverable/mailbox_disabled');
    expect(t('alice@tarpit.mailworld.test')).toBe('deliverable/accepted');
    expect(t('alice@silent.mailworld.test')).toBe('unknown/smtp_unreachable');
    expect(t('alice@refused.mailworld.test')).toBe('unknown/smtp_unreachable');
    expect(t('alice@busy.mailworld.test')).toBe('unknown/smtp_unreachable');
    expect(t('ghost@dead-primary.mailworld.test')).toBe('undeliverable/mailbox_not_found');
    expect(t('alice@silent-primary.mailworld.test')).toBe('deliverable/accepted');
    expect(t('alice@implicit-mx.mailworld.test')).toBe('deliverable/accepted');
    expect(t('alice@null-mx.mailworld.test')).toBe('undeliverable/null_mx');
    expect(t('alice@nxdomain.mailworld.test')).toBe('undeliverable/no_domain');
    expect(t('alice@dns-timeout.mailworld.test')).toBe('unknown/dns_error');
    expect(t('alice@servfail.mailworld.test')).toBe('unknown/dns_error');
    expect(t('alice@no-mx.mailworld.test')).toBe('undeliverable/no_mx');
    expect(t('user12@rcpt-limit.mailworld.test')).toBe('undeliverable/mailbox_not_found');
    expect(t('alice@starttls.mailworld.test')).toBe('deliverable/accepted');
    expect(t('alice@mailinator.com')).toBe('risky/disposable');
    expect(t('ghost@multiline.mailworld.test')).toBe('undeliverable/mailbox_not_found');
    expect(t('ghost@legacy.mailworld.test')).toBe('undeliverable/mailbox_not_found');
    expect(t('alice@mx-no-address.mailworld.test')).toBe('deliverable/accepted');
    expect(t('alice@greylist-catch-all.mailworld.test')).toBe('risky/catch_all');
    expect(t('ghost@sender-reject.mailworld.test')).toBe('unknown/policy_block');
    expect(t('alice@xn--bcher-kva.mailworld.test')).toBe('deliverable/accepted');
  });

  it('generates a skewed bulk world of 10,000 addresses over 220 domains, deterministically', () => {
    const bulk = generateBulkDomains({ seed: 7 });
    expect(bulk).toHaveLength(220);
    const sizes = bulk.map((d) => d.addresses.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(sizes.slice(0, 4).reduce((a, b) => a + b, 0)).toBeGreaterThan(5000);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
    expect(sizes.filter((s) => s <= 10).length).toBeGreaterThan(100);
    expect(JSON.stringify(generateBulkDomains({ seed: 7 }))).toBe(JSON.stringify(bulk));
    // Fewer addresses than tail domains: some tail domains get none, the total still holds.
    const small = generateBulkDomains({ addresses: 300 });
    expect(small.reduce((a, d) => a + d.addresses.length, 0)).toBe(300);
  });

  it('starts a bulk world with shared MX hosts and a mix of outcomes', async () => {
    const bulk = await startMailWorld({ domains: generateBulkDomains({ seed: 1, addresses: 2000, domains: 210 }) });
    try {
      expect(bulk.emails).toHaveLength(2000);
      const verdicts = new Map<string, number>();
      for (const t of bulk.truth.values()) verdicts.set(t.verdict, (verdicts.get(t.verdict) ?? 0) + 1);
      expect(verdicts.get('deliverable')).toBeGreaterThan(1000);
      expect(verdicts.get('undeliverable')).toBeGreaterThan(300);
      expect(bulk.hosts.size).toBeLessThan(100);
    } finally {
      await bulk.stop();
    }
  });
});
