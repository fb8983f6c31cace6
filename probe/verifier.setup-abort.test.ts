// A caller that leaves while its big batch is still being set up stops the setup too: the syntax of
// the addresses not reached yet is not worked out for nobody.
import { describe, expect, it, vi } from 'vitest';
import { createVerifier } from './index';

const calls = vi.hoisted(() => ({ syntax: 0 }));
vi.mock('./syntax/decide', async (importOriginal) => {
  const real = await importOriginal<typeof import('./syntax/decide')>();
  return {
    ...real,
    decideBySyntax: (...args: Parameters<typeof real.decideBySyntax>) => {
      calls.syntax++;
      return real.decideBySyntax(...args);
    },
  };
});

describe('verifier batch setup', () => {
  it('stops working out syntax once the caller has gone', async () => {
    const v = createVerifier({ dnsServers: ['127.0.0.1:9'], allowPrivateNetworks: true });
    const emails = Array.from({ length: 200_000 }, (_, i) => `not an address ${i}`);
    const ac = new AbortController();
    let seen = 0;
    const run = (async () => {
      for await (const r of v.verifyBatch(emails, { depth: 'syntax', signal: ac.signal })) {
        void r;
        if (++seen === 1) ac.abort();
      }
    })();
    await expect(run).rejects.toThrow(/aborted/);
    // Give a setup that went on regardless the time to finish before counting.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls.syntax).toBeGreaterThan(0);
    expect(calls.syntax).toBeLessThan(emails.length);
    await v.close();
  });
});
