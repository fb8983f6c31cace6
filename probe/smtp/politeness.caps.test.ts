import { describe, expect, it } from 'vitest';
import { Politeness } from './politeness';
import { Semaphore } from './semaphore';

const tick = () => new Promise((r) => setImmediate(r));

describe('semaphore', () => {
  it('grants in FIFO order and never more than the limit', async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    let active = 0;
    let max = 0;
    await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        s.run(async () => {
          active++;
          max = Math.max(max, active);
          order.push(i);
          await tick();
          active--;
        }),
      ),
    );
    expect(max).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it('drops an aborted waiter', async () => {
    const s = new Semaphore(1);
    await s.acquire();
    const ac = new AbortController();
    const waiting = s.acquire(ac.signal);
    ac.abort();
    await expect(waiting).rejects.toThrow(/aborted/);
    expect(s.waiting).toBe(0);
  });
});

describe('politeness', () => {
  it('caps connections per IP and overall, and counts sessions', async () => {
    const p = new Politeness({ maxConnectionsPerIp: 2, maxRcptsPerSession: 20, globalConcurrency: 3 });
    const a1 = await p.acquire('1.1.1.1');
    const a2 = await p.acquire('1.1.1.1');
    let a3Granted = false;
    const a3 = p.acquire('1.1.1.1').then((r) => ((a3Granted = true), r));
    const b1 = await p.acquire('2.2.2.2');
    let b2Granted = false;
    const b2 = p.acquire('2.2.2.2').then((r) => ((b2Granted = true), r));
    await tick();
    expect(a3Granted).toBe(false); // per-IP cap
    expect(b2Granted).toBe(false); // global cap
    a1();
    await tick();
    expect(b2Granted).toBe(true); // first in the global queue
    expect(a3Granted).toBe(false);
    b1();
    await tick();
    expect(a3Granted).toBe(true);
    (await a3)();
    a2();
    (await b2)();
    expect(p.counters).toEqual({ maxConcurrentPerIp: 0, sessions: 0, rcpts: 0 }); // nothing was sent on these slots
  });

  it('counts sessions and concurrency only for slots that carried a session', async () => {
    const p = new Politeness({ maxConnectionsPerIp: 5, maxRcptsPerSession: 20, globalConcurrency: 100 });
    const a = await p.acquire('1.1.1.1');
    const b = await p.acquire('1.1.1.1');
    const c = await p.acquire('1.1.1.1');
    a.use();
    b.use();
    expect(p.counters).toMatchObject({ sessions: 2, maxConcurrentPerIp: 2 });
    a();
    c.use();
    expect(p.counters).toMatchObject({ sessions: 3, maxConcurrentPerIp: 2 });
    b();
    c();
  });

  it('lowers the RCPT limit after a 452 and the connection cap after a 421', async () => {
    const p = new Politeness({ maxConnectionsPerIp: 5, maxRcptsPerSession: 20, globalConcurrency: 100 });
    p.lowerRcptLimit('1.1.1.1', 7);
    expect(p.rcptLimit('1.1.1.1')).toBe(7);
    p.lowerRcptLimit('1.1.1.1', 0);
    expect(p.rcptLimit('1.1.1.1')).toBe(1);
    expect(p.rcptLimit('2.2.2.2')).toBe(20);
    const r1 = await p.acquire('1.1.1.1');
    const r2 = await p.acquire('1.1.1.1');
    const r3 = await p.acquire('1.1.1.1');
    p.lowerConnectionCap('1.1.1.1'); // 3 open → cap 2
    r1();
    r2();
    let granted = 0;
    const more = [p.acquire('1.1.1.1'), p.acquire('1.1.1.1')].map((x) => x.then((r) => (granted++, r)));
    await tick();
    expect(granted).toBe(1); // r3 still open + 1 new = cap 2
    r3();
    await tick();
    expect(granted).toBe(2);
    for (const m of more) (await m)();
  });

  it('forgets a lowered limit after a while', () => {
    let now = 0;
    const p = new Politeness({ maxConnectionsPerIp: 5, maxRcptsPerSession: 20, globalConcurrency: 100, memoryMs: 1000, now: () => now });
    p.lowerRcptLimit('1.1.1.1', 3);
    now = 500;
    expect(p.rcptLimit('1.1.1.1')).toBe(3);
    now = 2000;
    expect(p.rcptLimit('1.1.1.1')).toBe(20);
  });
});

describe('priority', () => {
  it('serves the waiter with the most remaining work first', async () => {
    const s = new Semaphore(1);
    await s.acquire();
    const order: string[] = [];
    const waits = [
      s.acquire(undefined, 1).then(() => order.push('small-1')),
      s.acquire(undefined, 9).then(() => order.push('big')),
      s.acquire(undefined, 1).then(() => order.push('small-2')),
    ];
    for (let i = 0; i < 3; i++) {
      s.release();
      await tick();
    }
    await Promise.all(waits);
    expect(order).toEqual(['big', 'small-1', 'small-2']);
  });
});
