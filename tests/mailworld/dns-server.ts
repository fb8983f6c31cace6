// Authoritative-for-everything DNS server on 127.0.0.1 (UDP and TCP on one random port), built on
// dns2. Names it does not know are NXDOMAIN, so nothing ever leaks to public DNS.
import { isIPv4 } from 'node:net';
import dns2 from 'dns2';
import type { DomainSpec } from './types';

const { Packet } = dns2;

type Behaviour = 'ok' | 'nxdomain' | 'servfail' | 'timeout';

interface NameData {
  mx?: { priority: number; exchange: string }[];
  a?: string[];
  aaaa?: string[];
  /** An alias: answered with this CNAME, then the target's records of the type asked (as a resolver does). */
  cname?: string;
  txt?: string[];
}

/** An IPv6 literal ('::1', '::'): published as AAAA. */
const isV6 = (ip: string): boolean => ip.includes(':');

export const DNSBL_ZONE = 'bl.mailworld.test';

export interface Zone {
  names: Map<string, NameData>;
  /** Domain-level behaviour, applied to the domain and every name below it. */
  behaviours: Map<string, Behaviour>;
  /** servfailFirst: per domain, how many questions about each (name, type) under it are answered SERVFAIL first. */
  cold?: Map<string, number>;
  /** servfailFirst: questions answered so far, per `${type} ${name}`. */
  asked?: Map<string, number>;
}

function entry(zone: Zone, name: string): NameData {
  let d = zone.names.get(name);
  if (!d) {
    d = {};
    zone.names.set(name, d);
  }
  return d;
}

export function buildZone(domains: DomainSpec[], dnsblIps: string[]): Zone {
  const zone: Zone = { names: new Map(), behaviours: new Map(), cold: new Map(), asked: new Map() };
  for (const d of domains) {
    const name = d.domain.toLowerCase();
    const behaviour = d.dns ?? 'ok';
    if (behaviour !== 'ok') {
      zone.behaviours.set(name, behaviour);
      continue;
    }
    if (d.servfailFirst) zone.cold?.set(name, d.servfailFirst);
    const e = entry(zone, name);
    e.txt = ['v=spf1 mx -all'];
    if (d.nullMx) e.mx = [{ priority: 0, exchange: '' }];
    for (const mx of d.mx ?? []) {
      // A host listed twice (once per address, an A and an AAAA) is one MX record.
      const record = { priority: mx.priority, exchange: mx.host.toLowerCase() };
      if (!e.mx?.some((r) => r.priority === record.priority && r.exchange === record.exchange)) (e.mx ??= []).push(record);
      const target = mx.cname?.toLowerCase();
      if (target) entry(zone, mx.host.toLowerCase()).cname = target;
      if (mx.ip) {
        const h = entry(zone, target ?? mx.host.toLowerCase());
        const list = isV6(mx.ip) ? (h.aaaa ??= []) : (h.a ??= []);
        if (!list.includes(mx.ip)) list.push(mx.ip);
      }
    }
    for (const a of d.aRecords ?? []) (isV6(a.ip) ? (e.aaaa ??= []) : (e.a ??= [])).push(a.ip);
  }
  for (const ip of dnsblIps) {
    const rev = ip.split('.').reverse().join('.');
    entry(zone, `${rev}.${DNSBL_ZONE}`).a = ['127.0.0.2'];
    entry(zone, `${rev}.${DNSBL_ZONE}`).txt = ['Listed by mailworld test DNSBL'];
  }
  return zone;
}

/** servfailFirst of the domain `name` is under, if any. */
function coldFirst(zone: Zone, name: string): number | undefined {
  if (!zone.cold || zone.cold.size === 0) return undefined;
  for (let n = name; ; ) {
    const first = zone.cold.get(n);
    if (first !== undefined) return first;
    const dot = n.indexOf('.');
    if (dot < 0) return undefined;
    n = n.slice(dot + 1);
  }
}

/**
 * servfailFirst: whether this question about `name` is one of the first ones its domain answers
 * SERVFAIL (a resolver that has not resolved the name yet); counts the question.
 */
function stillCold(zone: Zone, name: string, type: number): boolean {
  const first = coldFirst(zone, name);
  if (first === undefined) return false;
  const key = `${type} ${name}`;
  const counts = (zone.asked ??= new Map());
  const asked = (counts.get(key) ?? 0) + 1;
  counts.set(key, asked);
  return asked <= first;
}

function behaviourOf(zone: Zone, name: string): Behaviour {
  let n = name;
  for (;;) {
    const b = zone.behaviours.get(n);
    if (b) return b;
    const dot = n.indexOf('.');
    if (dot < 0) return 'ok';
    n = n.slice(dot + 1);
  }
}

export interface DnsServerHandle {
  port: number;
  /** The UDP socket's receive buffer as the kernel reports it (Linux: twice what was granted). */
  udpRecvBufferSize(): number;
  close(): Promise<void>;
}

/** dns2's handler: builds the answer as a dns2 Packet (TCP, and UDP queries the fast path leaves alone). */
export function dns2Handler(zone: Zone, ttl: number, onQuery: () => void): dns2.DnsHandler {
  return (request, send) => {
    onQuery();
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const q = request.questions[0];
    if (!q) {
      response.header.rcode = Packet.RCODE.FORMERR;
      send(response);
      return;
    }
    const name = q.name.toLowerCase().replace(/\.$/, '');
    const behaviour = behaviourOf(zone, name);
    if (behaviour === 'timeout') return; // never answer
    if (behaviour === 'servfail' || stillCold(zone, name, q.type)) {
      response.header.rcode = Packet.RCODE.SERVFAIL;
      send(response);
      return;
    }
    let data = behaviour === 'ok' ? zone.names.get(name) : undefined;
    if (!data) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
      send(response);
      return;
    }
    let owner = q.name;
    const add = (record: Partial<dns2.Packet.Resource>): void => {
      response.answers.push(Packet.createResourceFromQuestion({ ...q, name: owner }, { class: Packet.CLASS.IN, ttl, ...record }));
    };
    // An alias: its CNAME, then the target's records of the type asked (a few links at most).
    for (let hops = 0; data.cname !== undefined && hops < 8; hops++) {
      add({ type: Packet.TYPE.CNAME, domain: data.cname });
      if (q.type === Packet.TYPE.CNAME) break;
      owner = data.cname;
      const target = zone.names.get(data.cname);
      if (!target) break;
      data = target;
    }
    if (data.cname !== undefined) {
      send(response);
      return;
    }
    if (q.type === Packet.TYPE.MX || q.type === Packet.TYPE.ANY) {
      for (const mx of data.mx ?? []) {
        add({ type: Packet.TYPE.MX, priority: mx.priority, exchange: mx.exchange });
      }
    }
    if (q.type === Packet.TYPE.A || q.type === Packet.TYPE.ANY) {
      for (const address of data.a ?? []) add({ type: Packet.TYPE.A, address });
    }
    if (q.type === Packet.TYPE.AAAA || q.type === Packet.TYPE.ANY) {
      for (const address of data.aaaa ?? []) add({ type: Packet.TYPE.AAAA, address });
    }
    if (q.type === Packet.TYPE.TXT || q.type === Packet.TYPE.ANY) {
      for (const txt of data.txt ?? []) add({ type: Packet.TYPE.TXT, data: txt });
    }
    // Anything else is NOERROR with no answers (NODATA).
    send(response);
  };
}

/** The answer section for one (lower-case name, query type), as dns2 would encode it after the question. */
interface EncodedAnswers {
  count: number;
  bytes: Buffer;
}

/**
 * Writes `name` as dns2's Packet.Name.encode does: labels split on '.', empty ones dropped, and a
 * compression pointer for the longest suffix (compared in lower case) already written; every suffix
 * written is remembered at its offset. Returns null for a name dns2 would refuse (a label over 63
 * octets or a name over 255).
 */
function encodeName(name: string, out: number[], names: Map<string, number>): boolean {
  const parts = name.split('.').filter((p) => p.length > 0);
  let total = 1;
  for (const p of parts) {
    if (p.length > 63) return false;
    total += p.length + 1;
  }
  if (total > 255) return false;
  for (let i = 0; i < parts.length; i++) {
    const suffix = parts.slice(i).join('.').toLowerCase();
    const at = names.get(suffix);
    if (at !== undefined) {
      out.push(0xc0 | (at >> 8), at & 0xff);
      return true;
    }
    if (out.length < 0x4000) names.set(suffix, out.length);
    const part = parts[i] as string;
    out.push(part.length);
    for (let j = 0; j < part.length; j++) out.push(part.charCodeAt(j) & 0xff);
  }
  out.push(0);
  return true;
}

/**
 * Encodes the answers to a query for `name` (lower case, as the question carries it up to case)
 * of type `qtype`, byte for byte as dns2 does: each owner name is a pointer to the question, class
 * IN, the world's TTL. The question starts at offset 12, so the compression offsets depend only on
 * the name, which is why one encoding serves every query for it whatever its case. Null when a
 * record is one dns2 would refuse to encode (then dns2 answers, as before).
 */
function encodeAnswers(name: string, qtype: number, data: NameData, ttl: number): EncodedAnswers | null {
  // Aliases and IPv6 addresses are left to dns2 (few names have them).
  if (data.cname !== undefined || data.aaaa !== undefined) return null;
  const out: number[] = new Array<number>(12).fill(0);
  const names = new Map<string, number>();
  if (!encodeName(name, out, names)) return null;
  out.push(0, 0, 0, 0); // the question's type and class
  const start = out.length;
  const wireTtl = Math.min(ttl >>> 0, 0x7fffffff);
  let count = 0;
  const record = (type: number, rdata: (o: number[]) => boolean): boolean => {
    if (!encodeName(name, out, names)) return false;
    out.push(type >> 8, type & 0xff, 0, Packet.CLASS.IN, (wireTtl >>> 24) & 0xff, (wireTtl >>> 16) & 0xff, (wireTtl >>> 8) & 0xff, wireTtl & 0xff, 0, 0);
    const lenAt = out.length - 2;
    if (!rdata(out)) return false;
    const len = out.length - lenAt - 2;
    out[lenAt] = (len >> 8) & 0xff;
    out[lenAt + 1] = len & 0xff;
    count++;
    return true;
  };
  const any = qtype === Packet.TYPE.ANY;
  if (qtype === Packet.TYPE.MX || any) {
    for (const mx of data.mx ?? []) {
      const ok = record(Packet.TYPE.MX, (o) => {
        if (!Number.isInteger(mx.priority) || mx.priority < 0 || mx.priority > 0xffff) return false;
        o.push((mx.priority >> 8) & 0xff, mx.priority & 0xff);
        return encodeName(mx.exchange, o, names);
      });
      if (!ok) return null;
    }
  }
  if (qtype === Packet.TYPE.A || any) {
    for (const address of data.a ?? []) {
      const ok = record(Packet.TYPE.A, (o) => {
        if (!isIPv4(address)) return false; // dns2 refuses it too
        for (const part of address.split('.')) o.push(Number(part));
        return true;
      });
      if (!ok) return null;
    }
  }
  if (qtype === Packet.TYPE.TXT || any) {
    for (const txt of data.txt ?? []) {
      const ok = record(Packet.TYPE.TXT, (o) => {
        const bytes = Buffer.from(txt, 'utf8');
        if (bytes.length > 255) return false;
        o.push(bytes.length, ...bytes);
        return true;
      });
      if (!ok) return null;
    }
  }
  return { count, bytes: Buffer.from(out.slice(start)) };
}

/** What the fast path does with a datagram: answer these bytes, say nothing, or let dns2 handle it. */
type FastAnswer = Buffer | 'drop' | 'dns2';

/**
 * Answers the plain query nearly every resolver sends (one question, no other records: no EDNS)
 * without dns2's bit-by-bit parse and encode: the same bytes dns2 would send (tested against it),
 * the answer section encoded once per (name, type). Anything else goes to dns2 ('dns2').
 */
export function fastAnswerer(zone: Zone, ttl: number): (msg: Buffer) => FastAnswer {
  const cache = new Map<string, EncodedAnswers | null>();
  const labels: string[] = [];
  return (msg) => {
    // 12-octet header; QDCOUNT 1, ANCOUNT = NSCOUNT = ARCOUNT = 0; at most 512 octets.
    if (msg.length < 17 || msg.length > 512) return 'dns2';
    if (msg[4] !== 0 || msg[5] !== 1 || msg[6] !== 0 || msg[7] !== 0 || msg[8] !== 0 || msg[9] !== 0 || msg[10] !== 0 || msg[11] !== 0) {
      return 'dns2';
    }
    // The question's name: plain labels only (no pointers, no '.' inside a label), ≤ 255 octets.
    labels.length = 0;
    let pos = 12;
    let total = 1;
    for (;;) {
      const len = msg[pos];
      if (len === undefined || len & 0xc0) return 'dns2';
      pos++;
      if (len === 0) break;
      total += len + 1;
      if (total > 255 || pos + len > msg.length) return 'dns2';
      for (let i = pos; i < pos + len; i++) if (msg[i] === 0x2e) return 'dns2';
      labels.push(msg.toString('latin1', pos, pos + len));
      pos += len;
    }
    const qend = pos + 4;
    if (qend > msg.length) return 'dns2';
    const qtype = (msg[pos] as number) * 256 + (msg[pos + 1] as number);
    const name = labels.join('.').toLowerCase();
    const behaviour = behaviourOf(zone, name);
    if (behaviour === 'timeout') return 'drop';
    let rcode: number = Packet.RCODE.NOERROR;
    let answers: EncodedAnswers | null = null;
    // A servfailFirst domain's questions are counted once, by dns2's handler.
    if (coldFirst(zone, name) !== undefined) return 'dns2';
    if (behaviour === 'servfail') rcode = Packet.RCODE.SERVFAIL;
    else {
      const data = behaviour === 'ok' ? zone.names.get(name) : undefined;
      if (!data) rcode = Packet.RCODE.NXDOMAIN;
      else {
        const key = `${qtype} ${name}`;
        answers = cache.get(key) ?? null;
        if (!cache.has(key)) {
          answers = encodeAnswers(name, qtype, data, ttl);
          cache.set(key, answers);
        }
        if (!answers) return 'dns2';
      }
    }
    const qlen = qend - 12;
    const size = qend + (answers?.bytes.length ?? 0);
    if (size > 512) return 'dns2'; // dns2 truncates (TC=1)
    const out = Buffer.allocUnsafe(size);
    out[0] = msg[0] as number;
    out[1] = msg[1] as number;
    const flags = msg[2] as number;
    out[2] = 0x80 | (flags & 0x78) | 0x04 | (flags & 0x01); // QR, the request's OPCODE, AA, the request's RD
    out[3] = rcode; // RA, Z, AD, CD clear
    out[4] = 0;
    out[5] = 1;
    const an = answers?.count ?? 0;
    out[6] = (an >> 8) & 0xff;
    out[7] = an & 0xff;
    out.fill(0, 8, 12);
    msg.copy(out, 12, 12, 12 + qlen);
    if (answers) answers.bytes.copy(out, qend);
    return out;
  };
}

/** Receive buffer for the UDP socket, as a recursive resolver's (the kernel caps it at rmem_max). */
const UDP_RECV_BUFFER = 4 * 1024 * 1024;

export async function startDnsServer(
  zone: Zone,
  opts: { ttl: number; onQuery: () => void },
): Promise<DnsServerHandle> {
  const handle = dns2Handler(zone, opts.ttl, opts.onQuery);
  const fast = fastAnswerer(zone, opts.ttl);

  // UDP and TCP must share one port: take a free UDP port, then try the same TCP port.
  for (let attempt = 0; attempt < 20; attempt++) {
    const udp = dns2.createUDPServer(handle);
    // Plain queries take the fast path; the rest (EDNS, several questions, oddities) dns2's own.
    udp.removeAllListeners('message');
    udp.on('message', (msg: Buffer, rinfo: import('node:dgram').RemoteInfo) => {
      const answer = fast(msg);
      if (answer === 'dns2') return udp.handle(msg, rinfo);
      opts.onQuery();
      if (answer !== 'drop') udp.send(answer, rinfo.port, rinfo.address);
    });
    const port = await new Promise<number>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => resolve(udp.address().port));
    });
    try {
      udp.setRecvBufferSize(UDP_RECV_BUFFER);
    } catch {
      // Some systems refuse the size; the default buffer still works.
    }
    const tcp = dns2.createTCPServer(handle);
    const sockets = new Set<import('node:net').Socket>();
    tcp.on('connection', (s: import('node:net').Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    });
    const ok = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!ok) {
      udp.close();
      continue;
    }
    udp.on('error', () => undefined);
    tcp.on('error', () => undefined);
    return {
      port,
      udpRecvBufferSize: () => udp.getRecvBufferSize(),
      close: async () => {
        for (const s of sockets) s.destroy();
        await Promise.all([
          new Promise<void>((r) => udp.close(() => r())),
          new Promise<void>((r) => tcp.close(() => r())),
        ]);
      },
    };
  }
  throw new Error('mailworld: no free port for the DNS server (UDP+TCP)');
}
