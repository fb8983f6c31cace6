// Receivers met on the open internet (tests/mailworld receiverScenarios): an MX through a CNAME, MX and
// implicit MX over IPv6 only, MX names on unspecified addresses, an EHLO reply with mixed separators,
// refusals about us worded or coded like "no such user". Each address gets its ground truth, and no
// address is ever a false "undeliverable".
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { receiverScenarios, startMailWorld, type MailWorld } from '../mailworld/index';
import { expectedOutcome, falseUndeliverable, fastProbeOptions, outcome } from './mailworld-helpers';

/** Whether this machine has IPv6 loopback (::1) to bind. */
function hasIpv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(0, '::1', () => srv.close(() => resolve(true)));
  });
}

let world: MailWorld;
let scenarios: ReturnType<typeof receiverScenarios>;
beforeAll(async () => {
  scenarios = receiverScenarios({ ipv6: await hasIpv6Loopback() });
  world = await startMailWorld({ domains: scenarios });
});
afterAll(async () => {
  await world?.stop();
});

describe('receivers the scenario list lacks', () => {
  it('every address gets its ground truth, never a false undeliverable, and nothing connects to an unspecified address', { timeout: 30_000 }, async () => {
    const v = createVerifier(fastProbeOptions(world));
    try {
      const results: VerificationResult[] = [];
      for await (const r of v.verifyBatch(world.emails)) results.push(r);
      expect(falseUndeliverable(world, results)).toEqual([]);
      expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
      const blocked = results.find((r) => r.email === 'alice@unspecified-mx.mailworld.test');
      expect(blocked?.evidence.detail).toContain('0.0.0.0');
      expect(world.counters.perIp.has('0.0.0.0')).toBe(false);
    } finally {
      await v.close();
    }
  });

  it('the world itself: the alias and the IPv6 host are in its DNS, the mixed EHLO reply is sent as written', async () => {
    const dns = new Resolver();
    dns.setServers([world.dnsServer]);
    expect(await dns.resolveCname('mx1.cname-mx.mailworld.test')).toEqual(['real-host.cname-mx.mailworld.test']);
    expect(await dns.resolve4('mx1.cname-mx.mailworld.test')).toEqual(['127.79.1.1']);
    expect(await dns.resolve4('mx1.unspecified-mx.mailworld.test')).toEqual(['0.0.0.0']);
    if (scenarios.some((d) => d.domain === 'aaaa-mx.mailworld.test')) expect(await dns.resolve6('mx1.aaaa-mx.mailworld.test')).toEqual(['::1']);
    // The EHLO reply as the host writes it: a space after the code of its second line.
    const ehlo = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(world.smtpPort, '127.79.4.1');
      let got = '';
      let asked = false;
      socket.on('data', (d) => {
        got += d.toString();
        if (!asked && got.endsWith('\r\n')) {
          asked = true;
          got = '';
          socket.write('EHLO probe.test\r\n');
        } else if (asked && got.endsWith('250 SMTPUTF8\r\n')) {
          socket.destroy();
          resolve(got);
        }
      });
      socket.on('error', reject);
    });
    expect(ehlo.split('\r\n').slice(0, 3)).toEqual(['250-mx1.ehlo-mixed.mailworld.test', '250 PIPELINING', '250-SIZE 35882577']);
    expect(world.truth.get('alice@unspecified-mx.mailworld.test')).toMatchObject({ verdict: 'unknown', reason: 'blocked_address' });
    expect(world.truth.get('ghost@not-authorized.mailworld.test')).toMatchObject({ verdict: 'unknown', reason: 'policy_block' });
    expect(world.truth.get('ghost@unspecified-primary.mailworld.test')).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
  });
});
