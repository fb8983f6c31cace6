import { describe, expect, it } from 'vitest';
import { NextRoundLoader } from './next-round';

/** A store whose reads the test releases by hand, recording when each read started. */
function manualStore() {
  let value = 'v0';
  const reads: Array<{ key: string; sawValue: string; release(): void }> = [];
  const loader = new NextRoundLoader<string, string>(
    (key) =>
      new Promise<string>((resolve) => {
        const sawValue = value; // what the database held when the query started
        reads.push({ key, sawValue, release: () => resolve(`${key}:${sawValue}`) });
      }),
  );
  return { loader, reads, set: (v: string) => (value = v) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('NextRoundLoader', () => {
  it('never answers a caller from a read that started before it asked; callers who queued share the next read', async () => {
    const s = manualStore();
    const first = s.loader.get('k');
    expect(s.reads).toHaveLength(1);
    // The value changes (a key revoked) after the first read started: later callers must see it.
    s.set('revoked');
    const second = s.loader.get('k');
    const third = s.loader.get('k');
    expect(s.reads).toHaveLength(1); // they wait for the next round, not this read
    s.reads[0]!.release();
    expect(await first).toBe('k:v0');
    await tick();
    expect(s.reads).toHaveLength(2); // one read for both waiting callers
    s.reads[1]!.release();
    expect(await second).toBe('k:revoked');
    expect(await third).toBe('k:revoked');
  });

  it('keeps keys apart and starts afresh once nothing waits', async () => {
    const s = manualStore();
    const a = s.loader.get('a');
    const b = s.loader.get('b');
    expect(s.reads.map((r) => r.key)).toEqual(['a', 'b']);
    s.reads[0]!.release();
    s.reads[1]!.release();
    expect([await a, await b]).toEqual(['a:v0', 'b:v0']);
    await tick();
    const again = s.loader.get('a');
    expect(s.reads).toHaveLength(3);
    s.reads[2]!.release();
    expect(await again).toBe('a:v0');
  });

  it('passes a failed read to its callers only, and the next round still runs', async () => {
    let n = 0;
    const loader = new NextRoundLoader<string, number>(async () => {
      n += 1;
      if (n === 1) throw new Error('connection lost');
      return n;
    });
    const failing = loader.get('k');
    const next = loader.get('k');
    await expect(failing).rejects.toThrow('connection lost');
    expect(await next).toBe(2);
  });
});
