// Test helper: a tiny authoritative DNS server on 127.0.0.1 (UDP, random port) built on dns2.
// Unknown names are NXDOMAIN; a name can be made to SERVFAIL or never answer.
import dns2 from 'dns2';

const { Packet } = dns2;

export interface FakeName {
  mx?: [priority: number, exchange: string][];
  a?: string[];
  aaaa?: string[];
  ttl?: number;
  /** The name is an alias: answered with this CNAME, then the target's records of the asked type (as a recursive resolver does). */
  cname?: string;
  behaviour?: 'servfail' | 'timeout';
}

export interface FakeDns {
  server: string;
  queries: { name: string; type: number }[];
  close(): Promise<void>;
}

/**
 * `chase: false` answers an alias with its CNAME record alone, without the target's records, as an
 * authoritative server does for a target in another zone (the asker must look the target up itself).
 */
/** `failTypes`: question types (e.g. 5, CNAME) answered SERVFAIL for every name, as a server that does not implement them. */
export async function startFakeDns(names: Record<string, FakeName>, o: { chase?: boolean; failTypes?: number[] } = {}): Promise<FakeDns> {
  const queries: { name: string; type: number }[] = [];
  const udp = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const q = request.questions[0];
    if (!q) return;
    const name = q.name.toLowerCase().replace(/\.$/, '');
    queries.push({ name, type: q.type });
    const data = names[name];
    if (data?.behaviour === 'timeout') return;
    if (data?.behaviour === 'servfail' || o.failTypes?.includes(q.type)) {
      response.header.rcode = Packet.RCODE.SERVFAIL;
      return send(response);
    }
    if (!data) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
      return send(response);
    }
    let owner = q.name;
    let answered = data;
    // A CNAME chain (at most 8 links), each link in the answer before the target's records.
    for (let hops = 0; answered.cname !== undefined && hops < 8; hops++) {
      response.answers.push(Packet.createResourceFromQuestion({ ...q, name: owner }, { type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: answered.ttl ?? 300, domain: answered.cname }));
      if (o.chase === false) return send(response);
      owner = answered.cname;
      const next = names[owner.toLowerCase().replace(/\.$/, '')];
      if (!next) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
        return send(response);
      }
      answered = next;
    }
    const ttl = answered.ttl ?? 300;
    const add = (r: Partial<dns2.Packet.Resource>): void => {
      response.answers.push(Packet.createResourceFromQuestion({ ...q, name: owner }, { class: Packet.CLASS.IN, ttl, ...r }));
    };
    if (q.type === Packet.TYPE.MX) for (const [priority, exchange] of answered.mx ?? []) add({ type: Packet.TYPE.MX, priority, exchange });
    if (q.type === Packet.TYPE.A) for (const address of answered.a ?? []) add({ type: Packet.TYPE.A, address });
    if (q.type === Packet.TYPE.AAAA) for (const address of answered.aaaa ?? []) add({ type: Packet.TYPE.AAAA, address });
    send(response);
  });
  udp.on('error', () => undefined);
  const port = await new Promise<number>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(0, '127.0.0.1', () => resolve(udp.address().port));
  });
  return {
    server: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((r) => udp.close(() => r())),
  };
}
