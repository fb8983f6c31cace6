// A node that starts on hundreds of domains at once must not send all their DNS questions in one
// burst: at most MAX_QUERIES_IN_FLIGHT are out, the rest wait their turn, and every one is answered.
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
    if (q) response.answers.push(Packet.createResourceFromQuestion(q, { type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address: '192.0.2.7' }));
    // Answered a little later, as a resolver that has to ask upstream.
    setTimeout(() => {
      outstanding--;
      send(response);
    }, 15);
  });
  port = await new Promise<number>((resolve) => server.bind(0, '127.0.0.1', () => resolve(server.address().port)));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('DnsCache questions in flight', () => {
  it(`keeps at most ${MAX_QUERIES_IN_FLIGHT} questions out, and answers all of a burst of 400`, async () => {
    const dns = new DnsCache({ servers: [`127.0.0.1:${port}`], timeoutMs: 3000 });
    try {
      const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => dns.a(`host${i}.burst.test`)));
      expect(answers.every((a) => a.ok && a.records[0] === '192.0.2.7')).toBe(true);
      expect(received).toBe(400); // none lost, none asked twice
      expect(maxOutstanding).toBeGreaterThan(1);
      expect(maxOutstanding).toBeLessThanOrEqual(MAX_QUERIES_IN_FLIGHT);
      expect(MAX_QUERIES_IN_FLIGHT).toBeLessThan(400); // the burst is bigger than the limit
    } finally {
      dns.close();
    }
  });

});
