// Where we agree to send webhooks. A URL must be https on port 443, and every address its host
// resolves to must be global unicast (probe/net-guard.ts: an allowlist of global space, so private,
// loopback, link-local/metadata, CGNAT, unique-local, site-local, multicast, documentation,
// benchmarking, reserved and every tunnelled or embedded-IPv4 form are refused). Deliveries never
// follow redirects (a 3xx is a failed attempt). The check runs when the URL is submitted
// and again at connection time through `guardedLookup`, so DNS rebinding cannot slip past it.
// `allowPrivate` (WEBHOOK_ALLOW_PRIVATE, tests and local development only) lifts both rules.
import dns from 'node:dns';
import net from 'node:net';
import { checkAddress } from '../../../probe/index';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** The only port a webhook may target: receivers are public HTTPS endpoints, not other services. */
export const WEBHOOK_PORTS: readonly string[] = ['', '443'];

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

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
  if (!url.hostname) return { ok: false, message: 'webhook_url must name a host.' };
  if (url.username || url.password) return { ok: false, message: 'webhook_url must not contain credentials.' };
  if (!allowPrivate && !WEBHOOK_PORTS.includes(url.port)) return { ok: false, message: 'webhook_url must use the standard HTTPS port (443).' };
  return { ok: true, url };
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Full check, DNS included. Refuses hosts that do not resolve or resolve to any non-public address. */
export async function checkWebhookUrl(raw: string, o: { allowPrivate: boolean }): Promise<WebhookUrlCheck> {
  const parsed = parseWebhookUrl(raw, o.allowPrivate);
  if (!parsed.ok || o.allowPrivate) return parsed;
  const host = hostOf(parsed.url);
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return { ok: false, message: `webhook_url host ${host} could not be resolved.` };
    }
  }
  if (addresses.length === 0) return { ok: false, message: `webhook_url host ${host} could not be resolved.` };
  for (const a of addresses) {
    if (!checkAddress(a).ok) return { ok: false, message: 'webhook_url must point to a public internet address (private, loopback, link-local, metadata, reserved and tunnelled addresses are refused).' };
  }
  return parsed;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http(s).request that refuses non-public addresses at connection time. */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as dns.LookupAddress[];
    const blocked = list.find((a) => !checkAddress(a.address).ok);
    if (blocked || list.length === 0) {
      const e: NodeJS.ErrnoException = new Error(`refusing to connect to non-public address for ${hostname}`);
      e.code = 'EADDRBLOCKED';
      return callback(e, []);
    }
    if (options.all) return callback(null, list);
    const first = list[0]!;
    callback(null, first.address, first.family);
  });
}
