// Authoritative-for-everything DNS server on 127.0.0.1 (UDP and TCP on one random port), built on
// dns2. Names it does not know are NXDOMAIN, so nothing ever leaks to public DNS.
import dns2 from 'dns2';
import type { DomainSpec } from './types';

const { Packet } = dns2;

type Behaviour = 'ok' | 'nxdomain' | 'servfail' | 'timeout';

interface NameData {
  mx?: { priority: number; exchange: string }[];
  a?: string[];
  txt?: string[];
}

export const DNSBL_ZONE = 'bl.mailworld.test';

export interface Zone {
  names: Map<string, NameData>;
  /** Domain-level behaviour, applied to the domain and every name below it. */
  behaviours: Map<string, Behaviour>;
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
  const zone: Zone = { names: new Map(), behaviours: new Map() };
  for (const d of domains) {
    const name = d.domain.toLowerCase();
    const behaviour = d.dns ?? 'ok';
    if (behaviour !== 'ok') {
      zone.behaviours.set(name, behaviour);
      continue;
    }
    const e = entry(zone, name);
    e.txt = ['v=spf1 mx -all'];
    if (d.nullMx) e.mx = [{ priority: 0, exchange: '' }];
    for (const mx of d.mx ?? []) {
      (e.mx ??= []).push({ priority: mx.priority, exchange: mx.host.toLowerCase() });
      if (mx.ip) {
        const h = entry(zone, mx.host.toLowerCase());
        h.a ??= [];
        if (!h.a.includes(mx.ip)) h.a.push(mx.ip);
      }
    }
    for (const a of d.aRecords ?? []) (e.a ??= []).push(a.ip);
  }
  for (const ip of dnsblIps) {
    const rev = ip.split('.').reverse().join('.');
    entry(zone, `${rev}.${DNSBL_ZONE}`).a = ['127.0.0.2'];
    entry(zone, `${rev}.${DNSBL_ZONE}`).txt = ['Listed by mailworld test DNSBL'];
  }
  return zone;
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
  close(): Promise<void>;
}

export async function startDnsServer(
  zone: Zone,
  opts: { ttl: number; onQuery: () => void },
): Promise<DnsServerHandle> {
  const handle: dns2.DnsHandler = (request, send) => {
    opts.onQuery();
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
    if (behaviour === 'servfail') {
      response.header.rcode = Packet.RCODE.SERVFAIL;
      send(response);
      return;
    }
    const data = behaviour === 'ok' ? zone.names.get(name) : undefined;
    if (!data) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
      send(response);
      return;
    }
    const add = (record: Partial<dns2.Packet.Resource>): void => {
      response.answers.push(Packet.createResourceFromQuestion(q, { class: Packet.CLASS.IN, ttl: opts.ttl, ...record }));
    };
    if (q.type === Packet.TYPE.MX || q.type === Packet.TYPE.ANY) {
      for (const mx of data.mx ?? []) {
        add({ type: Packet.TYPE.MX, priority: mx.priority, exchange: mx.exchange });
      }
    }
    if (q.type === Packet.TYPE.A || q.type === Packet.TYPE.ANY) {
      for (const address of data.a ?? []) add({ type: Packet.TYPE.A, address });
    }
    if (q.type === Packet.TYPE.TXT || q.type === Packet.TYPE.ANY) {
      for (const txt of data.txt ?? []) add({ type: Packet.TYPE.TXT, data: txt });
    }
    // Anything else (AAAA, …) is NOERROR with no answers (NODATA).
    send(response);
  };

  // UDP and TCP must share one port: take a free UDP port, then try the same TCP port.
  for (let attempt = 0; attempt < 20; attempt++) {
    const udp = dns2.createUDPServer(handle);
    const port = await new Promise<number>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => resolve(udp.address().port));
    });
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
