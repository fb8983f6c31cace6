// A server that hangs up in the middle of a pipelined group, right after accepting a recipient (the
// 250 read last may be QUIT's own "250 Bye": the group is out of step), is asked again one command at
// a time. That fallback is per MX address and expires: one bad session must not slow that server for
// the rest of the node's life; a server that breaks pipelining again after it expired is left on one
// command at a time for longer (no hang-up loop).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createVerifier } from './index';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { loopbackOptions } from './testing/loopback-options';
import { lineSplitter, startLoopbackServer, type LoopbackServer } from './testing/loopback-server';

let dns: FakeDns;
let server: LoopbackServer;
/** Pipelined groups the server received (MAIL and a RCPT in one segment). */
let pipelinedGroups = 0;
/** Whether the server hangs up in a pipelined group right after accepting a recipient. */
let breaksPipelining = true;

beforeAll(async () => {
  dns = await startFakeDns({ 'flaky.test': { mx: [[10, 'mx.flaky.test']] }, 'mx.flaky.test': { a: ['127.0.0.1'] } });
  server = await startLoopbackServer((socket) => {
    socket.write('220 mx.flaky.test ESMTP\r\n');
    const lines = lineSplitter();
    socket.on('data', (d) => {
      const got = lines(d);
      const group = got.some((l) => l.startsWith('MAIL')) && got.some((l) => l.startsWith('RCPT'));
      if (group) pipelinedGroups++;
      let out = '';
      for (const line of got) {
        if (line.startsWith('EHLO')) out += '250-mx.flaky.test\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n';
        else if (line.startsWith('RCPT')) {
          const known = /<(alice|bob)@/.test(line);
          out += known ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n';
          if (group && breaksPipelining && known) {
            socket.end(out); // accepted the first recipient, then hung up on the group
            return;
          }
        } else if (line.startsWith('QUIT')) {
          socket.end(`${out}221 2.0.0 Bye\r\n`);
          return;
        } else out += '250 2.1.0 Ok\r\n';
      }
      if (out) socket.write(out);
    });
  });
});
afterAll(async () => {
  await server.close();
  await dns.close();
});
afterEach(() => vi.restoreAllMocks());

describe('pipelining fallback after a server hung up on a pipelined group', () => {
  it('expires: the server is pipelined to again later, and falls back again (for longer) if it still hangs up', { timeout: 30_000 }, async () => {
    const realNow = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    const v = createVerifier(loopbackOptions(dns.server, server.port));
    const check = async (): Promise<Record<string, string>> => {
      const got: Record<string, string> = {};
      for await (const r of v.verifyBatch(['alice@flaky.test', 'ghost@flaky.test', 'bob@flaky.test'])) got[r.email] = `${r.verdict}/${r.reason}`;
      return got;
    };
    const truth = { 'alice@flaky.test': 'deliverable/accepted', 'ghost@flaky.test': 'undeliverable/mailbox_not_found', 'bob@flaky.test': 'deliverable/accepted' };
    try {
      pipelinedGroups = 0;
      expect(await check()).toEqual(truth);
      expect(pipelinedGroups).toBe(1); // broken once: the rest one command at a time
      expect(await check()).toEqual(truth);
      expect(pipelinedGroups).toBe(1); // a moment later: still one command at a time
      offset += 2 * 3_600_000; // hours later: the fallback has expired
      expect(await check()).toEqual(truth);
      expect(pipelinedGroups).toBe(2); // pipelined to again; it hung up again: back to one at a time
      offset += 20 * 60_000; // as long again as the first fallback lasted, and a little more
      expect(await check()).toEqual(truth);
      expect(pipelinedGroups).toBe(2); // the second fallback lasts longer than the first
      breaksPipelining = false; // the server is fixed
      offset += 24 * 3_600_000;
      expect(await check()).toEqual(truth);
      expect(await check()).toEqual(truth);
      expect(pipelinedGroups).toBe(4); // pipelined again, and it stays pipelined
    } finally {
      await v.close();
    }
  });
});
