// The semaphore's queue: higher priority first, first come first served among equals, and a waiting
// place raised later (a real-time check now needs what a bulk batch queued) moves up.
import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore';

/** Grants `n` slots, one at a time, and returns the labels in the order they were granted. */
async function grantOrder(sem: Semaphore, granted: Promise<string>[]): Promise<string[]> {
  const order: string[] = [];
  for (const p of granted) void p.then((label) => order.push(label));
  for (let i = 0; i < granted.length; i++) {
    sem.release();
    await new Promise((r) => setImmediate(r));
  }
  return order;
}

describe('Semaphore.queue', () => {
  it('grants at once while a slot is free', async () => {
    const sem = new Semaphore(2);
    const place = sem.queue();
    await place.granted;
    expect(sem.inUse).toBe(1);
    place.raise(5); // nothing to move
    expect(sem.waiting).toBe(0);
  });

  it('serves by priority, in order among equals, and moves a raised place up behind its new peers', async () => {
    const sem = new Semaphore(1);
    await sem.acquire();
    const a = sem.queue(0);
    const b = sem.queue(0);
    const c = sem.queue(1);
    const d = sem.queue(0);
    d.raise(1); // now behind c, which was at 1 first
    b.raise(0); // not higher: stays where it is
    expect(sem.waiting).toBe(4);
    const order = await grantOrder(sem, [a, b, c, d].map((p, i) => p.granted.then(() => 'abcd'[i] as string)));
    expect(order).toEqual(['c', 'd', 'a', 'b']);
  });

  it('ignores a raise once the place has its slot', async () => {
    const sem = new Semaphore(1);
    await sem.acquire();
    const a = sem.queue(0);
    const b = sem.queue(0);
    sem.release();
    await a.granted;
    a.raise(9);
    expect(sem.waiting).toBe(1); // b still waits, a is not queued again
    sem.release();
    await b.granted;
    expect(sem.inUse).toBe(1);
  });
});
