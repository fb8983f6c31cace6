// Receivers the engine meets on the open internet, each against real loopback DNS and SMTP servers:
// MX hosts reached through a CNAME or only over IPv6, the implicit MX on AAAA, MX names that resolve
// to addresses we must never connect to, and greetings and replies written oddly.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from './contract';
import { createVerifier, type ProbeOptions } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer, type LoopbackServer } from './testing/loopback-server';

/** A plain server: alice exists, everyone else is 550 5.1.1; `greet` and `ehlo` written as given. */
function plainServer(o: { greet?: string; ehlo?: string; eol?: string; host?: string; unknown?: string; onConnect?: () => void } = {}): Promise<LoopbackServer> {
  const eol = o.eol ?? '\r\n';
  return startLoopbackServer((socket: net.Socket) => {
    o.onConnect?.();
    socket.write(o.greet ?? `220 mx.test ESMTP${eol}`);
    const lines = lineSplitter();
    socket.on('data', (d) => {
      let out = '';
      for (const line of lines(d)) {
        if (line.startsWith('EHLO')) out += o.ehlo ?? `250-mx.test${eol}250-PIPELINING${eol}250 ENHANCEDSTATUSCODES${eol}`;
        else if (line.startsWith('RCPT')) out += /<alice@/.test(line) ? `250 2.1.5 Ok${eol}` : (o.unknown ?? `550 5.1.1 User unknown${eol}`);
        else if (line.startsWith('QUIT')) return void socket.end(`${out}221 2.0.0 Bye${eol}`);
        else out += `250 2.1.0 Ok${eol}`;
      }
      if (out) socket.write(out);
    });
  }, o.host);
}

async function verdicts(opts: ProbeOptions, emails: string[]): Promise<Record<string, VerificationResult>> {
  const v = createVerifier(opts);
  try {
    const got: Record<string, VerificationResult> = {};
    for await (const r of v.verifyBatch(emails)) got[r.email] = r;
    return got;
  } finally {
    await v.close();
  }
}
const short = (r: Record<string, VerificationResult>): Record<string, string> => Object.fromEntries(Object.entries(r).map(([e, x]) => [e, `${x.verdict}/${x.reason}`]));

describe('MX hosts reached through a CNAME or only over IPv6', () => {
  let dns: FakeDns;
  let v4: LoopbackServer;
  let v6: LoopbackServer;
  beforeAll(async () => {
    v4 = await plainServer();
    v6 = await plainServer({ host: '::1' });
    dns = await startFakeDns(
      {
        'alias.test': { mx: [[10, 'mail.alias.test']] },
        'mail.alias.test': { cname: 'real.host.test' },
        'real.host.test': { a: ['127.0.0.1'] },
        'six.test': { mx: [[10, 'mx.six.test']] },
        'mx.six.test': { aaaa: ['::1'] },
        'implicit6.test': { aaaa: ['::1'] },
      },
      { chase: false },
    );
  });
  afterAll(async () => {
    await Promise.all([v4.close(), v6.close(), dns.close()]);
  });

  it('an MX name that is an alias (CNAME, not chased by the DNS server) is followed to its address', async () => {
    const r = await verdicts(loopbackOptions(dns.server, v4.port), ['alice@alias.test', 'ghost@alias.test']);
    expect(short(r)).toEqual({ 'alice@alias.test': 'deliverable/accepted', 'ghost@alias.test': 'undeliverable/mailbox_not_found' });
  });

  it('an MX host with only an AAAA record is asked over IPv6', async () => {
    const r = await verdicts(loopbackOptions(dns.server, v6.port), ['alice@six.test', 'ghost@six.test']);
    expect(short(r)).toEqual({ 'alice@six.test': 'deliverable/accepted', 'ghost@six.test': 'undeliverable/mailbox_not_found' });
    expect(r['alice@six.test']?.evidence.mx_ip).toBe('::1');
  });

  it('a domain without MX whose only address is AAAA is its own mail server (RFC 5321 5.1 implicit MX)', async () => {
    const r = await verdicts(loopbackOptions(dns.server, v6.port), ['alice@implicit6.test', 'ghost@implicit6.test']);
    expect(short(r)).toEqual({ 'alice@implicit6.test': 'deliverable/accepted', 'ghost@implicit6.test': 'undeliverable/mailbox_not_found' });
  });
});

describe('MX names that resolve to addresses we must not connect to', () => {
  let dns: FakeDns;
  let server: LoopbackServer;
  let connections = 0;
  beforeAll(async () => {
    server = await plainServer({ onConnect: () => connections++ });
    dns = await startFakeDns({
      'loop.test': { mx: [[10, 'mx.loop.test']] },
      'mx.loop.test': { a: ['127.0.0.1'] },
      'private.test': { mx: [[10, 'mx.private.test'], [20, 'mx2.private.test']] },
      'mx.private.test': { a: ['10.1.2.3'] },
      'mx2.private.test': { a: ['192.168.7.7'] },
      'zero.test': { mx: [[10, 'mx.zero.test']] },
      'mx.zero.test': { a: ['0.0.0.0'] },
      'six-zero.test': { mx: [[10, 'mx.six-zero.test']] },
      'mx.six-zero.test': { aaaa: ['::'] },
      'ula.test': { aaaa: ['fd00::25'] },
    });
  });
  afterAll(async () => {
    await Promise.all([server.close(), dns.close()]);
  });

  it('never connects, answers unknown/blocked_address, and says why, never invalid', async () => {
    const emails = ['alice@loop.test', 'ghost@loop.test', 'alice@private.test', 'alice@zero.test', 'alice@six-zero.test', 'alice@ula.test'];
    const r = await verdicts({ ...loopbackOptions(dns.server, server.port), allowPrivateNetworks: false }, emails);
    expect(connections).toBe(0);
    for (const e of emails) {
      expect(`${r[e]?.verdict}/${r[e]?.reason}`, e).toBe('unknown/blocked_address');
      expect(r[e]?.evidence.detail ?? '', e).toMatch(/private or reserved address/);
    }
    expect(r['alice@zero.test']?.evidence.detail).toContain('0.0.0.0');
  });

  it('never connects to an unspecified address (0.0.0.0, ::: this machine itself), even where private networks are allowed', async () => {
    const before = connections;
    const emails = ['alice@zero.test', 'alice@six-zero.test'];
    const r = await verdicts(loopbackOptions(dns.server, server.port), emails);
    expect(connections - before).toBe(0);
    for (const e of emails) expect(`${r[e]?.verdict}/${r[e]?.reason}`, e).toBe('unknown/blocked_address');
  });
});

describe('greetings and replies written oddly', () => {
  let dns: FakeDns;
  beforeAll(async () => {
    dns = await startFakeDns({ 'odd.test': { mx: [[10, 'mx.odd.test']] }, 'mx.odd.test': { a: ['127.0.0.1'] } });
  });
  afterAll(() => dns.close());

  type Oddity = Parameters<typeof plainServer>[0];
  it.each<[string, Oddity]>([
    ['a multi-line 220 banner', { greet: '220-mx.odd.test ESMTP\r\n220-Unauthorized use prohibited\r\n220 Ready\r\n' }],
    ['a banner of several complete 220 replies', { greet: '220 mx.odd.test ESMTP\r\n220 Unauthorized use prohibited\r\n' }],
    ['replies ended by LF alone', { eol: '\n' }],
    ['a banner ended by LF alone, replies by CRLF', { greet: '220-mx.odd.test\n220 ESMTP\n' }],
    ['an EHLO reply whose lines mix "-" and " " (a space in the middle: more replies than asked)', { ehlo: '250-mx.odd.test\r\n250 PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n' }],
    ['an EHLO reply with a line without a separator', { ehlo: '250-mx.odd.test\r\n250PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n' }],
    ...[true, false].map((pipelining): [string, Oddity] => [
      `a multi-line 550 whose first line ends with a space (several complete replies for one RCPT; PIPELINING offered: ${pipelining})`,
      {
        ehlo: `250-mx.odd.test\r\n${pipelining ? '250-PIPELINING\r\n' : ''}250 ENHANCEDSTATUSCODES\r\n`,
        unknown: '550 5.1.1 The email account that you tried to reach does not exist. Please try\r\n550-5.1.1 double-checking the recipient\'s email address for typos or\r\n550 5.1.1 unnecessary spaces.\r\n',
      },
    ]),
  ])('%s: every address still gets its true verdict, never a false undeliverable', async (_, o) => {
    const server = await plainServer(o);
    try {
      const r = await verdicts(loopbackOptions(dns.server, server.port), ['ghost@odd.test', 'alice@odd.test']);
      const s = short(r);
      // Whatever the server's oddity costs, alice (who exists) is never undeliverable.
      expect(s['alice@odd.test']).not.toMatch(/^undeliverable/);
      expect(s).toEqual({ 'alice@odd.test': 'deliverable/accepted', 'ghost@odd.test': 'undeliverable/mailbox_not_found' });
    } finally {
      await server.close();
    }
  });
});
