// The DNS server's fast path (plain queries answered without dns2's parse and encode) must send
// exactly the bytes dns2 would: compared here query by query against dns2's own handler, and end to
// end over UDP (fast path) against TCP (dns2) on a running server.
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZone, dns2Handler, fastAnswerer, startDnsServer, type DnsServerHandle, type Zone } from './dns-server';
import type { DomainSpec } from './types';

const { Packet } = dns2;
const TTL = 300;

const domains: DomainSpec[] = [
  {
    domain: 'two-mx.test',
    scenario: 'two MX under the domain',
    mx: [
      { host: 'mx1.two-mx.test', priority: 10, ip: '127.50.0.1' },
      { host: 'MX2.two-mx.test', priority: 20, ip: '127.50.0.2' },
      { host: 'mx.elsewhere.test', priority: 30, ip: '127.50.0.3' },
      { host: 'backup.mx.elsewhere.test', priority: 40 },
    ],
    addresses: [],
  },
  { domain: 'null-mx.test', scenario: 'null MX', nullMx: true, addresses: [] },
  { domain: 'implicit.test', scenario: 'A only', aRecords: [{ ip: '127.50.0.4' }, { ip: '127.50.0.5' }], addresses: [] },
  { domain: 'gone.test', scenario: 'nxdomain', dns: 'nxdomain', mx: [{ host: 'mx.gone.test', priority: 10, ip: '127.50.0.6' }], addresses: [] },
  { domain: 'broken.test', scenario: 'servfail', dns: 'servfail', addresses: [] },
  { domain: 'slow.test', scenario: 'timeout', dns: 'timeout', addresses: [] },
];
const zone: Zone = buildZone(domains, ['127.50.0.1']);

interface QueryOptions {
  id?: number;
  cls?: number;
  /** Header flags (default 0x0100: RD). */
  flags?: number;
  /** Extra octets after the question. */
  trailing?: number[];
}

function query(name: string, type: number, o: QueryOptions = {}): Buffer {
  const labels = name.split('.').filter(Boolean);
  const qname = Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'latin1')])), Buffer.from([0])]);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(o.id ?? 0x1234, 0);
  header.writeUInt16BE(o.flags ?? 0x0100, 2);
  header.writeUInt16BE(1, 4);
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(type, 0);
  tail.writeUInt16BE(o.cls ?? Packet.CLASS.IN, 2);
  return Buffer.concat([header, qname, tail, Buffer.from(o.trailing ?? [])]);
}

/** What dns2 sends for this query (the server before the fast path): bytes, or 'drop' for silence. */
function viaDns2(msg: Buffer): Buffer | 'drop' {
  let out: Buffer | 'drop' = 'drop';
  let queries = 0;
  dns2Handler(zone, TTL, () => queries++)(
    Packet.parse(msg),
    (res) => {
      const bytes = Buffer.isBuffer(res) ? res : (res as InstanceType<typeof Packet>).toBuffer();
      out = bytes;
      return Promise.resolve(bytes);
    },
    { address: '127.0.0.1', family: 'IPv4', port: 53, size: msg.length },
  );
  expect(queries).toBe(1);
  return out;
}

const { A, MX, TXT, AAAA, ANY, CNAME } = Packet.TYPE;
const names = [
  'two-mx.test',
  'Two-MX.Test',
  'mx1.two-mx.test',
  'MX2.TWO-MX.TEST',
  'mx.elsewhere.test',
  'backup.mx.elsewhere.test',
  'null-mx.test',
  'implicit.test',
  'gone.test',
  'mx.gone.test',
  'broken.test',
  'deep.name.broken.test',
  'slow.test',
  'mx1.slow.test',
  'unknown.example',
  `1.0.50.127.bl.mailworld.test`,
  `2.0.50.127.bl.mailworld.test`,
];

describe('DNS fast path', () => {
  it('answers every plain query with the bytes dns2 sends (A, MX, TXT, AAAA/CNAME nodata, ANY, NXDOMAIN, SERVFAIL, silence)', () => {
    const fast = fastAnswerer(zone, TTL);
    let compared = 0;
    let answered = 0;
    for (const name of names) {
      for (const type of [A, MX, TXT, AAAA, ANY, CNAME]) {
        for (const o of [{}, { id: 0xbeef, flags: 0 }, { cls: Packet.CLASS.CH }, { flags: 0x1100 }, { trailing: [1, 2, 3] }] satisfies QueryOptions[]) {
          const msg = query(name, type, o);
          const got = fast(msg);
          expect(got, `${name} ${type} ${JSON.stringify(o)}`).not.toBe('dns2');
          const want = viaDns2(msg);
          if (want === 'drop') expect(got).toBe('drop');
          else {
            expect((got as Buffer).toString('hex'), `${name} ${type} ${JSON.stringify(o)}`).toBe(want.toString('hex'));
            answered++;
          }
          compared++;
        }
      }
    }
    expect(compared).toBe(names.length * 6 * 5);
    // Every rcode the zone produces is among the comparisons, and answers are not all empty.
    expect(answered).toBeGreaterThan(400);
    const mx = fast(query('two-mx.test', MX)) as Buffer;
    expect(Packet.parse(mx).answers.map((a) => (a as { exchange?: string }).exchange)).toEqual([
      'mx1.two-mx.test',
      'mx2.two-mx.test',
      'mx.elsewhere.test',
      'backup.mx.elsewhere.test',
    ]);
    expect(Packet.parse(fast(query('Gone.test', A)) as Buffer).header.rcode).toBe(Packet.RCODE.NXDOMAIN);
    expect(Packet.parse(fast(query('x.broken.test', MX)) as Buffer).header.rcode).toBe(Packet.RCODE.SERVFAIL);
    expect(fast(query('mx.slow.test', A))).toBe('drop');
  });

  it('leaves EDNS, several questions, compressed or dotted names and short packets to dns2', () => {
    const fast = fastAnswerer(zone, TTL);
    const plain = query('two-mx.test', MX);
    const edns = Buffer.concat([plain, Buffer.from([0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0])]);
    edns.writeUInt16BE(1, 10);
    expect(fast(edns)).toBe('dns2');
    const two = Buffer.from(plain);
    two.writeUInt16BE(2, 4);
    expect(fast(two)).toBe('dns2');
    const pointer = Buffer.concat([plain.subarray(0, 12), Buffer.from([0xc0, 0x0c, 0, 1, 0, 1])]);
    expect(fast(pointer)).toBe('dns2');
    const dotted = query('two-mx.test', A);
    dotted[13 + 3] = 0x2e; // "two.mx" as one label
    expect(fast(dotted)).toBe('dns2');
    expect(fast(plain.subarray(0, 14))).toBe('dns2');
    expect(fast(plain.subarray(0, plain.length - 1))).toBe('dns2');
  });
});

describe('DNS server over UDP and TCP', () => {
  let server: DnsServerHandle;
  let queries = 0;
  beforeAll(async () => {
    server = await startDnsServer(zone, { ttl: TTL, onQuery: () => queries++ });
  });
  afterAll(async () => {
    await server.close();
  });

  function overUdp(msg: Buffer): Promise<Buffer | null> {
    return new Promise((resolve) => {
      const s = dgram.createSocket('udp4');
      const timer = setTimeout(() => {
        s.close();
        resolve(null);
      }, 300);
      s.on('message', (m) => {
        clearTimeout(timer);
        s.close();
        resolve(m);
      });
      s.send(msg, server.port, '127.0.0.1');
    });
  }

  function overTcp(msg: Buffer): Promise<Buffer | null> {
    return new Promise((resolve, reject) => {
      const s = net.connect(server.port, '127.0.0.1');
      const len = Buffer.alloc(2);
      len.writeUInt16BE(msg.length);
      s.write(Buffer.concat([len, msg]));
      let got = Buffer.alloc(0);
      const timer = setTimeout(() => {
        s.destroy();
        resolve(null);
      }, 300);
      s.on('data', (d) => {
        got = Buffer.concat([got, d]);
        if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
          clearTimeout(timer);
          s.destroy();
          resolve(got.subarray(2, 2 + got.readUInt16BE(0)));
        }
      });
      s.on('error', reject);
    });
  }

  it('sends the same answer over UDP as over TCP, echoes each query id, and counts every query once', async () => {
    const before = queries;
    let sent = 0;
    for (const [i, name] of names.entries()) {
      for (const type of [A, MX, TXT, AAAA]) {
        const id = (i * 7919 + type * 131) & 0xffff;
        const msg = query(name, type, { id });
        const [udp, tcp] = await Promise.all([overUdp(msg), overTcp(msg)]);
        sent += 2;
        if (name.includes('slow.test')) {
          expect(udp).toBeNull();
          expect(tcp).toBeNull();
          continue;
        }
        expect(udp?.readUInt16BE(0), name).toBe(id);
        expect(udp?.toString('hex'), `${name} ${type}`).toBe(tcp?.toString('hex'));
      }
    }
    expect(queries - before).toBe(sent);
  });

  it.skipIf(process.platform !== 'linux')('asks for a 4 MB UDP receive buffer (as far as the kernel allows), well above the default', () => {
    const granted = Math.min(4 * 1024 * 1024, Number(readFileSync('/proc/sys/net/core/rmem_max', 'utf8')));
    const fallback = Number(readFileSync('/proc/sys/net/core/rmem_default', 'utf8'));
    expect(server.udpRecvBufferSize()).toBeGreaterThanOrEqual(granted);
    if (granted > fallback) expect(server.udpRecvBufferSize()).toBeGreaterThan(2 * fallback);
  });

  it('still answers EDNS queries over UDP (through dns2)', async () => {
    const plain = query('two-mx.test', MX, { id: 4242 });
    const edns = Buffer.concat([plain, Buffer.from([0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0])]);
    edns.writeUInt16BE(1, 10);
    const before = queries;
    const answer = await overUdp(edns);
    expect(answer?.readUInt16BE(0)).toBe(4242);
    expect(Packet.parse(answer as Buffer).answers).toHaveLength(4);
    expect(queries - before).toBe(1);
  });
});
