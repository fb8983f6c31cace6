// Local parts written in more than one way: quoted ("alice" is the mailbox alice, RFC 5321 4.1.2;
// "al ice" needs its quotes), in another case, and 64 octets long. The world's hosts look a local part
// up as Postfix does (quotes undone, case ignored); every address gets its ground truth, none is a
// false undeliverable, and the engine asks with the least quoting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../probe/index';
import type { VerificationResult } from '../../probe/contract';
import { startMailWorld, type MailWorld } from '../mailworld/index';
import { expectedOutcome, falseUndeliverable, fastProbeOptions, outcome } from './mailworld-helpers';

const long = `l${'o'.repeat(62)}g`; // 64 octets, the most RFC 5321 allows
let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({
    domains: [
      {
        domain: 'quoted.mailworld.test',
        scenario: 'quoted, mixed-case and 64-octet local parts',
        mx: [{ host: 'mx1.quoted.mailworld.test', priority: 10, ip: '127.94.1.1' }],
        mailboxes: { alice: 'ok', 'al ice': 'ok', [long]: 'ok' },
        addresses: ['"alice"', 'alice', 'ALICE', '"al ice"', '"ghost"', long, `${long.slice(0, 63)}x`],
      },
    ],
  });
});
afterAll(async () => {
  await world?.stop();
});

describe('local parts written in more than one way', () => {
  it('the world itself: "alice" is alice and "al ice" exists; "ghost" does not', () => {
    expect(world.truth.get('"alice"@quoted.mailworld.test')?.verdict).toBe('deliverable');
    expect(world.truth.get('"al ice"@quoted.mailworld.test')?.verdict).toBe('deliverable');
    expect(world.truth.get('"ghost"@quoted.mailworld.test')?.verdict).toBe('undeliverable');
  });

  it('every address gets its ground truth, never a false undeliverable', { timeout: 30_000 }, async () => {
    const v = createVerifier(fastProbeOptions(world));
    try {
      const results: VerificationResult[] = [];
      for await (const r of v.verifyBatch(world.emails, { depth: 'smtp', mode: 'bulk' })) results.push(r);
      expect(falseUndeliverable(world, results)).toEqual([]);
      expect(outcome(results)).toEqual(expectedOutcome(world, world.emails));
    } finally {
      await v.close();
    }
  });
});
