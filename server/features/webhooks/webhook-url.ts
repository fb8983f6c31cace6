// Where we agree to send webhooks. A URL must be https on port 443, and every address its host
// resolves to must be global unicast (probe/net-guard.ts: an allowlist of global space, so private,
// loopback, link-local/metadata, CGNAT, unique-local, site-local, multicast, documentation,
// benchmarking, reserved and every tunnelled or embedded-IPv4 form are refused). Deliveries never
// follow redirects (a 3xx is a failed attempt). The check runs when the URL is submitted
// and again at connection time through `guardedLookup`, so DNS rebinding cannot slip past it.
// `allowPrivate` (WEBHOOK_ALLOW_PRIVATE, tests and local development only) lifts both rules.
// Hosts are resolved with c-ares (dns.Resolver: WEBHOOK_DNS_SERVERS, or the system's servers), never
// getaddrinfo (dns.lookup): a host whose DNS never answers must not hold a thread of libuv's pool —
// four threads that every fs call, crypto (password hashing) and dns.lookup of the process share —
// and each question gives up after WEBHOOK_DNS_TIMEOUT_MS.
import dns from 'node:dns';
import net from 'node:net';
import { checkAddress } from '../../../probe/index';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** The only port a webhook may target: receivers are public HTTPS endpoints, not other services. */
export const WEBHOOK_PORTS: readonly string[] = ['', '443'];

/** A refusal; `unresolved` when only DNS failed (no answer, SERVFAIL, NXDOMAIN): at send time a network error to retry, not a verdict on the URL. */
export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; message: string; unresolved?: true };

/** Syntax and scheme only (no DNS): cheap enough for zod refinements. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): WebhookUrlCheck {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, message: `webhook_url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'webhook_url must be an absolute https:// URL.' };
  }
  const schemeOk = url.protocol === 'https:' || (allowPrivate && url.protocol === 'http:');
  if (!schemeOk) return { ok: false, message: 'webhook_url must use https.' };
  // The limit holds for what we store and send: the parser percent-encodes non-ASCII and spaces.
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, message: `webhook_url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.` };
  if (!url.hostname) return { ok: false, message: 'webhook_url must name a host.' };
  if (url.username || url.password) return { ok: false, message: 'webhook_url must not contain credentials.' };
  if (!allowPrivate && !WEBHOOK_PORTS.includes(url.port)) return { ok: false, message: 'webhook_url must use the standard HTTPS port (443).' };
  return { ok: true, url };
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** How long one DNS question about a webhook host may take (per try; two tries). */
export const WEBHOOK_DNS_TIMEOUT_MS = 2000;

const resolvers = new Map<string, dns.promises.Resolver>();

/** One c-ares resolver per server list (none: the system's). */
function resolverFor(servers: readonly string[] | undefined): dns.promises.Resolver {
  const id = servers?.join(',') ?? '';
  let r = resolvers.get(id);
  if (!r) {
    r = new dns.promises.Resolver({ timeout: WEBHOOK_DNS_TIMEOUT_MS, tries: 2 });
    if (servers && servers.length > 0) r.setServers([...servers]);
    resolvers.set(id, r);
  }
  return r;
}

/**
 * Every address (A and AAAA) of a webhook host, asked of DNS through c-ares; rejects when it has
 * none. `localhost` and its subdomains are loopback by definition (RFC 6761) and never asked.
 */
export async function resolveWebhookHost(host: string, servers?: readonly string[]): Promise<dns.LookupAddress[]> {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
  const r = resolverFor(servers);
  const [v4, v6] = await Promise.allSettled([r.resolve4(name), r.resolve6(name)]);
  const out: dns.LookupAddress[] = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (out.length === 0) {
    const e: NodeJS.ErrnoException = new Error(`${host} has no address`);
    e.code = v4.status === 'rejected' ? ((v4.reason as NodeJS.ErrnoException).code ?? 'ENOTFOUND') : 'ENODATA';
    throw e;
  }
  return out;
}

/** Full check, DNS included. Refuses hosts that do not resolve or resolve to any non-public address. */
export async function checkWebhookUrl(raw: string, o: { allowPrivate: boolean; dnsServers?: readonly string[] }): Promise<WebhookUrlCheck> {
  const parsed = parseWebhookUrl(raw, o.allowPrivate);
  if (!parsed.ok || o.allowPrivate) return parsed;
  const host = hostOf(parsed.url);
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveWebhookHost(host, o.dnsServers)).map((a) => a.address);
    } catch {
      return { ok: false, message: `webhook_url host ${host} could not be resolved.`, unresolved: true };
    }
  }
  if (addresses.length === 0) return { ok: false, message: `webhook_url host ${host} could not be resolved.`, unresolved: true };
  for (const a of addresses) {
    if (!checkAddress(a).ok) return { ok: false, message: 'webhook_url must point to a public internet address (private, loopback, link-local, metadata, reserved and tunnelled addresses are refused).' };
  }
  return parsed;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http(s).request that resolves as resolveWebhookHost and refuses non-public addresses at connection time. */
export function guardedLookup(servers?: readonly string[]): (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    resolveWebhookHost(hostname, servers).then(
      (list) => {
        const wanted = options.family === 4 || options.family === 6 ? list.filter((a) => a.family === options.family) : list;
        const blocked = list.find((a) => !checkAddress(a.address).ok);
        if (blocked || wanted.length === 0) {
          const e: NodeJS.ErrnoException = new Error(`refusing to connect to non-public address for ${hostname}`);
          e.code = 'EADDRBLOCKED';
          return callback(e, []);
        }
        if (options.all) return callback(null, wanted);
        const first = wanted[0]!;
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
