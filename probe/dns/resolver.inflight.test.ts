// A node that starts on hundreds of domains at once must not send all their DNS questions in one
// burst: at most MAX_QUERIES_IN_FLIGHT are out, the rest wait their turn, and every one is answered.
// A domain halfway through its route (its MX hosts' addresses) goes before domains not started, and a
// real-time check's questions before a bulk batch's, also when it shares a bulk question still waiting.
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsCache, MAX_QUERIES_IN_FLIGHT } from './resolver';

const { Packet } = dns2;

let server: ReturnType<typeof dns2.createUDPServer>;
let port = 0;
let outstanding = 0;
let maxOutstanding = 0;
let received = 0;

beforeAll(async () => {
  server = dns2.createUDPServer((request, send) => {
    received++;
    outstanding++;
    maxOutstanding = Math.max(maxOutstanding, outstanding);
    const q = request.questions[0];
    const response = Packet.createResponseFromRequest(request);
    if (q?.type === Packet.TYPE.MX) response.answers.push(Packet.createResourceFromQuestion(q, { type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, priority: 10, exchange: `mx.${q.name}` }));
    else if (q) response.answers.push(Packet.createResourceFromQuestion(q, { type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address: '192.0.2.7' }));
    // Answered a little later, as a resolver that has to ask upstream.
    setTimeout(() => {
      outstanding--;
      send(response);
    }, 15);
  });
  port = await new Promise<number>((resolve) => server.bind(0, '127.0.0.1', () => resolve(server.address().port)));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A cache asking the test server, closed after `test`. */
async function withCache(test: (dns: DnsCache) => Promise<void>): Promise<void> {
  const dns = new DnsCache({ servers: [`127.0.0.1:${port}`], timeoutMs: 3000 });
  try {
    await test(dns);
  } finally {
    dns.close();
  }
}

/** `answer`, with `label` noted in `order` when it comes. */
function noted<T>(order: string[], label: string, answer: Promise<T>): Promise<T> {
  return answer.then((a) => (order.push(label), a));
}

describe('DnsCache questions in flight', () => {
  it(`keeps at most ${MAX_QUERIES_IN_FLIGHT} questions out, and answers all of a burst of 400`, () =>
    withCache(async (dns) => {
      const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => dns.a(`host${i}.burst.test`)));
      expect(answers.every((a) => a.ok && a.records[0] === '192.0.2.7')).toBe(true);
      expect(received).toBe(400); // none lost, none asked twice
      expect(maxOutstanding).toBeGreaterThan(1);
      expect(maxOutstanding).toBeLessThanOrEqual(MAX_QUERIES_IN_FLIGHT);
      expect(MAX_QUERIES_IN_FLIGHT).toBeLessThan(400); // the burst is bigger than the limit
    }));

  it("lets an MX host's address question go before the MX questions still waiting", () =>
    withCache(async (dns) => {
      const order: string[] = [];
      const mxs = Array.from({ length: 320 }, (_, i) => noted(order, `mx${i}`, dns.mx(`domain${i}.queue.test`)));
      // The first domain's MX is known: the address of its MX host is asked next, behind 256 waiting MX questions.
      const first = await mxs[0];
      expect(first?.ok && first.records[0]?.exchange).toBe('mx.domain0.queue.test');
      const [a, ...rest] = await Promise.all([noted(order, 'a', dns.a('mx.domain0.queue.test')), ...mxs]);
      expect(a?.ok && a.records[0]).toBe('192.0.2.7');
      expect(rest.every((r) => r.ok)).toBe(true);
      // In the order asked it would have been answered last; now it goes out with the next free slot.
      expect(order.indexOf('a')).toBeLessThan(2 * MAX_QUERIES_IN_FLIGHT + 1);
      expect(maxOutstanding).toBeLessThanOrEqual(MAX_QUERIES_IN_FLIGHT);
    }));

  it("lets a real-time check's questions go before a bulk batch's that are still waiting", () =>
    withCache(async (dns) => {
      const order: string[] = [];
      const bulk = Array.from({ length: 320 }, (_, i) => noted(order, `bulk${i}`, dns.mx(`bulk${i}.queue.test`)));
      const [r, ...rest] = await Promise.all([noted(order, 'realtime', dns.mx('single.queue.test', true)), ...bulk]);
      expect(r?.ok && r.records[0]?.exchange).toBe('mx.single.queue.test');
      expect(rest.every((a) => a.ok)).toBe(true);
      // Asked after 320 bulk questions (256 of them waiting), answered with the second wave at the latest.
      expect(order.indexOf('realtime')).toBeLessThan(2 * MAX_QUERIES_IN_FLIGHT + 1);
    }));

  it('raises a waiting bulk question that a real-time check now shares (one question, answered early)', () =>
    withCache(async (dns) => {
      const order: string[] = [];
      const before = received;
      const bulk = Array.from({ length: 320 }, (_, i) => noted(order, `bulk${i}`, dns.mx(`bulk${i}.share.test`)));
      // The real-time check needs the MX of the 300th bulk domain, whose question waits behind 235 others.
      const [r, ...rest] = await Promise.all([noted(order, 'realtime', dns.mx('BULK300.share.test', true)), ...bulk]);
      expect(r?.ok && r.records[0]?.exchange).toBe('mx.bulk300.share.test');
      expect(rest.every((a) => a.ok)).toBe(true);
      expect(received - before).toBe(320); // shared, not asked twice
      // Left at bulk priority it would have gone out in the fifth wave; raised, it goes with the second.
      expect(order.indexOf('realtime')).toBeLessThan(2 * MAX_QUERIES_IN_FLIGHT + 1);
      expect(Math.abs(order.indexOf('bulk300') - order.indexOf('realtime'))).toBe(1); // the bulk batch gets the same answer then
    }));
});
