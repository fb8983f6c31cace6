// A webhook host whose DNS never answers costs the server nothing but the wait: its name is asked
// through c-ares (WEBHOOK_DNS_SERVERS, here a DNS server on 127.0.0.1 that swallows every question),
// not getaddrinfo, so the requests waiting on it hold none of libuv's four pool threads — which file
// access, password hashing and every dns.lookup of the process share — and each gives up on its own.
import { pbkdf2 } from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOn, type Person } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** A "DNS server" that reads every question and never answers; it keeps the names it was asked. */
async function startSilentDns() {
  const asked: string[] = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg: Buffer) => {
    // The question's name: length-prefixed labels after the 12-byte header.
    const labels: string[] = [];
    for (let i = 12; i < msg.length && msg[i]! > 0 && labels.length < 64; i += msg[i]! + 1) labels.push(msg.subarray(i + 1, i + 1 + msg[i]!).toString('latin1'));
    asked.push(labels.join('.').toLowerCase());
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return { address: `127.0.0.1:${(socket.address() as AddressInfo).port}`, asked, close: () => new Promise<void>((r) => socket.close(() => r())) };
}

let dns: Awaited<ReturnType<typeof startSilentDns>>;
let ts: TestServer;
let owner: Person;
let key = '';

beforeAll(async () => {
  dns = await startSilentDns();
  ts = await startTestServer({ env: { WEBHOOK_DNS_SERVERS: dns.address } });
  owner = await ownerOn(ts, 'pro', 'slow-dns');
  key = (await owner.client.trpcMutation('apiKeys.create', { name: 'sandbox', test: true })).body.result.data.api_key as string;
});
afterAll(async () => {
  await ts?.stop();
  await dns?.close();
});

describe('webhook hosts whose DNS never answers', () => {
  it('hold no thread of the pool while they wait, and are refused with a 400 that creates no job', { timeout: 60_000 }, async () => {
    const names = Array.from({ length: 6 }, (_, i) => `hang-${i}.webhook-dns.test`);
    const settled: boolean[] = names.map(() => false);
    const answers = names.map((name, i) =>
      fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ emails: ['valid@sandbox.mailvet.dev'], webhook_url: `https://${name}/hook` }) }).then(async (res) => {
        settled[i] = true;
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      }),
    );
    // Every request is waiting on the silent server …
    await expect.poll(() => names.every((n) => dns.asked.includes(n)), { timeout: 15_000 }).toBe(true);
    // … and more pool work than the pool has threads still gets done meanwhile.
    await Promise.all([...Array.from({ length: 8 }, () => promisify(pbkdf2)('password', 'salt', 1000, 32, 'sha256')), fs.readFile(new URL(import.meta.url))]);
    expect(settled.filter(Boolean)).toEqual([]);
    for (const a of await Promise.all(answers)) {
      expect(a.status).toBe(400);
      expect(String(a.body.detail)).toMatch(/could not be resolved/);
    }
    const jobs = await ts.testDb.db.selectFrom('validation_job').select('id').where('account_id', '=', owner.accountId).execute();
    expect(jobs).toEqual([]);
  });
});
