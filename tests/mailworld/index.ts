// A simulated mail internet on 127.0.0.0/8: one DNS server (UDP+TCP, 127.0.0.1, random port),
// one SMTP host per MX address (all on ONE shared port), and an RDAP server, all built from a
// declarative DomainSpec list with ground truth for every listed address. See README.md.
import http from 'node:http';
import tls from 'node:tls';
import selfsigned from 'selfsigned';
import { DNSBL_ZONE, buildZone, startDnsServer } from './dns-server';
import { SmtpHost, type HostContext, type RecipientDomain } from './smtp-host';
import { isUnspecified, mailboxIndex, truthFor, type MailboxIndex } from './truth';
import type { DomainSpec, ServerSpec, Truth, WorldCounters } from './types';
import { defaultScenarios } from './scenarios';

export type * from './types';
export { buildScenarios, defaultScenarios, receiverScenarios, type ScenarioParams } from './scenarios';
export { generateBulkDomains, type BulkParams } from './bulk-domains';
export { truthFor, isRoleLocal } from './truth';
export { DNSBL_ZONE } from './dns-server';

export interface MailWorldOptions {
  /** Domains to serve (default: defaultScenarios). */
  domains?: DomainSpec[];
  /** Delay before every SMTP reply, banner included (ms, default 0). */
  replyDelayMs?: number;
  /** SMTP port shared by every host (default: a random free port). 25 needs root. */
  smtpPort?: number;
  /** TTL of every DNS record (seconds, default 300). */
  dnsTtlSec?: number;
}

export interface MailWorld {
  /** '127.0.0.1:port' — pass to the verifier as its only DNS server. */
  dnsServer: string;
  dnsPort: number;
  /** The one port every SMTP host listens on. */
  smtpPort: number;
  /** Base URL of the RDAP server (GET {rdapUrl}/domain/{name}). */
  rdapUrl: string;
  /** DNSBL zone served by the DNS server (hosts with dnsblListed answer 127.0.0.2). */
  dnsblZone: string;
  domains: DomainSpec[];
  /** email (local@domain, lower-case domain) → ground truth. */
  truth: Map<string, Truth>;
  /** Every listed address, in domain order. */
  emails: string[];
  /** SMTP hosts by IP. */
  hosts: Map<string, { ip: string; name: string; spec: ServerSpec }>;
  counters: WorldCounters;
  /** Options for createVerifier that point it at this world (merge your own timeouts). */
  verifierOptions(): {
    dnsServers: string[];
    smtpPort: number;
    allowPrivateNetworks: true;
    rdapBaseUrl: string;
    dnsblZones: string[];
  };
  /** The same as PROBE_* environment variables, for a probe daemon started as a separate process. */
  probeEnv(): Record<string, string>;
  /** Forget greylisting history (triplets seen). */
  resetGreylist(): void;
  resetCounters(): void;
  stop(): Promise<void>;
}


let certificate: Promise<{ private: string; cert: string }> | null = null;
/** A throw-away self-signed certificate for STARTTLS, made once per process (no key is committed). */
function testCertificate(): Promise<{ private: string; cert: string }> {
  certificate ??= selfsigned.generate([{ name: 'commonName', value: 'mx.mailworld.test' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
  return certificate;
}

const RDAP_NOT_FOUND = JSON.stringify({ errorCode: 404, title: 'Not Found' });
const RDAP_BAD_REQUEST = JSON.stringify({ errorCode: 400, title: 'Bad Request' });

function emptyCounters(): WorldCounters {
  return {
    connections: 0,
    maxConcurrentPerIp: 0,
    maxRcptsPerSession: 0,
    rcpts: 0,
    tlsUpgrades: 0,
    pipelinedCommands: 0,
    repliesByCode: new Map(),
    violations: [],
    dnsQueries: 0,
    rdapQueries: 0,
    perIp: new Map(),
  };
}

function collectHosts(domains: DomainSpec[]): Map<string, { ip: string; name: string; spec: ServerSpec }> {
  const hosts = new Map<string, { ip: string; name: string; spec: ServerSpec }>();
  const add = (ip: string, name: string, spec: ServerSpec | undefined): void => {
    if (isUnspecified(ip)) return; // DNS only: nobody may connect there
    if (ip !== '::1' && !/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip)) throw new Error(`mailworld: host address ${ip} is not in 127.0.0.0/8 (nor ::1)`);
    if (ip === '127.0.0.1') throw new Error('mailworld: 127.0.0.1 is reserved for the DNS server');
    const existing = hosts.get(ip);
    if (!existing) {
      hosts.set(ip, { ip, name, spec: spec ?? {} });
    } else if (spec && JSON.stringify(spec) !== JSON.stringify(existing.spec)) {
      if (Object.keys(existing.spec).length === 0) existing.spec = spec;
      else throw new Error(`mailworld: host ${ip} defined twice with different behaviour`);
    }
  };
  for (const d of domains) {
    if ((d.dns ?? 'ok') !== 'ok') continue;
    for (const m of d.mx ?? []) if (m.ip) add(m.ip, m.host, m.server);
    for (const a of d.aRecords ?? []) add(a.ip, d.domain, a.server);
  }
  return hosts;
}

/** What a world's domain list says before anything listens: the lookups its servers use, every listed address and its ground truth. */
export function indexDomains(domains: DomainSpec[]): {
  byName: Map<string, DomainSpec>;
  /** domain → host IPs */
  servedBy: Map<string, Set<string>>;
  /** domain → its mailboxes by lower-case local part */
  mailboxesOf: Map<string, MailboxIndex>;
  truth: Map<string, Truth>;
  emails: string[];
} {
  const byName = new Map<string, DomainSpec>();
  const servedBy = new Map<string, Set<string>>();
  const mailboxesOf = new Map<string, MailboxIndex>();
  const truth = new Map<string, Truth>();
  const emails: string[] = [];
  for (const d of domains) {
    const name = d.domain.toLowerCase();
    if (byName.has(name)) throw new Error(`mailworld: domain ${name} listed twice`);
    byName.set(name, d);
    servedBy.set(name, new Set([...(d.mx ?? []).flatMap((m) => (m.ip ? [m.ip] : [])), ...(d.aRecords ?? []).map((a) => a.ip)]));
    const index = mailboxIndex(d);
    mailboxesOf.set(name, index);
    for (const local of d.addresses) {
      const email = `${local}@${name}`;
      truth.set(email, truthFor(d, local, index));
      emails.push(email);
    }
  }
  return { byName, servedBy, mailboxesOf, truth, emails };
}

export async function startMailWorld(o: MailWorldOptions = {}): Promise<MailWorld> {
  const domains = o.domains ?? defaultScenarios;
  const counters = emptyCounters();
  const { byName, servedBy, mailboxesOf, truth, emails } = indexDomains(domains);
  const hosts = collectHosts(domains);

  const tlsPems = await testCertificate();
  const secureContext = tls.createSecureContext({ key: tlsPems.private, cert: tlsPems.cert });
  const greylist = new Map<string, number>();
  const recipientDomains = new Map<string, RecipientDomain>();
  for (const [name, spec] of byName) {
    recipientDomains.set(name, { spec, servedBy: servedBy.get(name) ?? new Set(), mailboxes: mailboxesOf.get(name) ?? new Map() });
  }
  const ctx: HostContext = {
    replyDelayMs: o.replyDelayMs ?? 0,
    counters,
    secureContext,
    greylist,
    recipientDomain: (domain) => recipientDomains.get(domain),
  };

  const listed = [...hosts.values()].filter((h) => h.spec.dnsblListed).map((h) => h.ip);
  const dns = await startDnsServer(buildZone(domains, listed), {
    ttl: o.dnsTtlSec ?? 300,
    onQuery: () => counters.dnsQueries++,
  });

  // Bind every host on one shared port; on a clash, pick another port and try again.
  const smtpHosts = [...hosts.values()].map((h) => new SmtpHost(h.ip, h.name, h.spec, ctx));
  let smtpPort = 0;
  for (let attempt = 0; ; attempt++) {
    const port = o.smtpPort ?? 20_000 + Math.floor(Math.random() * 40_000);
    try {
      for (const h of smtpHosts) await h.listen(port);
      smtpPort = port;
      break;
    } catch (err) {
      await Promise.all(smtpHosts.map((h) => h.close()));
      if (o.smtpPort !== undefined || attempt >= 30) {
        await dns.close();
        throw new Error(`mailworld: cannot bind SMTP hosts on port ${port}: ${(err as Error).message}`);
      }
    }
  }

  // RDAP: each domain's body is made once around its date (which moves with the clock, to the ms,
  // exactly as before); the path → domain lookup is remembered per path.
  const rdapDomains = new Map<string, { spec: DomainSpec; head: string } | null>();
  /** undefined: the path segment is not valid percent-encoding. */
  const rdapDomain = (segment: string): { spec: DomainSpec; head: string } | null | undefined => {
    let hit = rdapDomains.get(segment);
    if (hit === undefined) {
      let name: string;
      try {
        name = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      const d = byName.get(name.toLowerCase());
      hit = !d || (d.dns ?? 'ok') === 'nxdomain' ? null : { spec: d, head: `{"objectClassName":"domain","ldhName":${JSON.stringify(d.domain)},"events":[{"eventAction":"registration","eventDate":` };
      if (rdapDomains.size < 100_000) rdapDomains.set(segment, hit);
    }
    return hit;
  };
  const rdap = http.createServer((req, res) => {
    counters.rdapQueries++;
    const m = /^\/domain\/([^/?]+)/.exec(req.url ?? '');
    const d = m?.[1] ? rdapDomain(m[1]) : null;
    if (d === undefined) {
      // A malformed percent-encoding: 400, as RDAP servers answer (it used to throw in the handler).
      res.writeHead(400, { 'content-type': 'application/rdap+json' });
      res.end(RDAP_BAD_REQUEST);
      return;
    }
    if (!d) {
      res.writeHead(404, { 'content-type': 'application/rdap+json' });
      res.end(RDAP_NOT_FOUND);
      return;
    }
    const registered = new Date(Date.now() - (d.spec.registeredDaysAgo ?? 3650) * 86_400_000).toISOString();
    res.writeHead(200, { 'content-type': 'application/rdap+json' });
    res.end(`${d.head}${JSON.stringify(registered)}}]}`);
  });
  await new Promise<void>((resolve) => rdap.listen(0, '127.0.0.1', () => resolve()));
  const rdapPort = (rdap.address() as { port: number }).port;

  const world: MailWorld = {
    dnsServer: `127.0.0.1:${dns.port}`,
    dnsPort: dns.port,
    smtpPort,
    rdapUrl: `http://127.0.0.1:${rdapPort}`,
    dnsblZone: DNSBL_ZONE,
    domains,
    truth,
    emails,
    hosts,
    counters,
    verifierOptions: () => ({
      dnsServers: [`127.0.0.1:${dns.port}`],
      smtpPort,
      allowPrivateNetworks: true,
      rdapBaseUrl: `http://127.0.0.1:${rdapPort}`,
      dnsblZones: [DNSBL_ZONE],
    }),
    probeEnv: () => ({
      PROBE_DNS_SERVERS: `127.0.0.1:${dns.port}`,
      PROBE_SMTP_PORT: String(smtpPort),
      PROBE_ALLOW_PRIVATE_NETWORKS: '1',
      PROBE_RDAP_URL: `http://127.0.0.1:${rdapPort}`,
      PROBE_DNSBL_ZONES: DNSBL_ZONE,
    }),
    resetGreylist: () => greylist.clear(),
    resetCounters: () => {
      const fresh = emptyCounters();
      const perIp = counters.perIp;
      Object.assign(counters, fresh, { perIp });
      for (const h of smtpHosts) h.resetCounters();
    },
    stop: async () => {
      rdap.closeAllConnections();
      await Promise.all([
        ...smtpHosts.map((h) => h.close()),
        dns.close(),
        new Promise<void>((resolve) => rdap.close(() => resolve())),
      ]);
    },
  };
  return world;
}
