// The probe's environment, parsed once with zod: the only reader of PROBE_* variables.
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { z } from 'zod';
import type { ProbeOptions } from './index';

const emptyAsUndefined = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const int = z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().optional());
const list = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined)),
);
const text = z.preprocess(emptyAsUndefined, z.string().optional());
/** What is wrong with one DNS server entry (an IP address, `:port` when not 53, IPv6 as `[::1]:53`), or null. */
export function dnsServerProblem(entry: string): string | null {
  const m = /^(?:\[([^\]]+)\]|([^:]+)|([^[\]]*:[^[\]]*))(?::(\d{1,5}))?$/.exec(entry);
  const host = m ? (m[1] ?? m[2] ?? m[3] ?? '') : '';
  const port = m?.[4];
  const ok = m !== null && net.isIP(host) !== 0 && (m[3] !== undefined ? port === undefined : true) && (port === undefined || (Number(port) >= 1 && Number(port) <= 65535));
  return ok ? null : `"${entry}" is not a DNS server address (an IP address, with :port if not 53; IPv6 as [::1]:53)`;
}
/** Comma-separated DNS servers; a host name or a typo stops the start with the variable's name. */
const dnsServers = list.superRefine((entries, ctx) => {
  for (const entry of entries ?? []) {
    const problem = dnsServerProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }
});
/** One IPv4 and/or one IPv6 address, comma-separated: the node's identity toward mail servers. */
const sourceIps = list.superRefine((ips, ctx) => {
  if (!ips) return;
  for (const ip of ips) if (net.isIP(ip) === 0) ctx.addIssue({ code: 'custom', message: `${ip} is not an IP address` });
  if (ips.filter((ip) => net.isIP(ip) === 4).length > 1 || ips.filter((ip) => net.isIP(ip) === 6).length > 1) {
    ctx.addIssue({ code: 'custom', message: 'at most one IPv4 and one IPv6 address' });
  }
});

export const probeEnvSchema = z.object({
  PROBE_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(8025)),
  PROBE_HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  PROBE_TOKEN: text,
  /** Also accepted while a token rotation is under way (the app processes still sending the old one). */
  PROBE_TOKEN_PREVIOUS: text,
  /** On SIGTERM, how long verify streams under way may run on before they are cut (their clients re-send the rest). */
  PROBE_DRAIN_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(600_000).default(8000)),
  PROBE_ALLOW_PRIVATE_NETWORKS: z.preprocess(emptyAsUndefined, z.enum(['0', '1', 'true', 'false']).optional()),
  PROBE_DNS_SERVERS: dnsServers,
  PROBE_DNS_TIMEOUT_MS: int,
  PROBE_SMTP_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).optional()),
  PROBE_SOURCE_IP: sourceIps,
  PROBE_HELO: text,
  PROBE_MAIL_FROM: text,
  PROBE_RDAP_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  PROBE_DNSBL_ZONES: list,
  PROBE_MAX_CONN_PER_IP: int,
  PROBE_MAX_RCPTS_PER_SESSION: int,
  PROBE_GLOBAL_CONCURRENCY: int,
  PROBE_CONNECT_TIMEOUT_MS: int,
  PROBE_BANNER_TIMEOUT_MS: int,
  PROBE_REPLY_TIMEOUT_MS: int,
  PROBE_MX_HEAD_START_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(600_000).optional()),
  /** The whole fleet's RCPT budget per MX IP and window; every node enforces its share (÷ PROBE_FLEET_SIZE). */
  PROBE_FLEET_MX_RCPT_PER_MINUTE: int,
  /** How many nodes the fleet may have (at least the number of URLs in the clients' PROBE_URLS). */
  PROBE_FLEET_SIZE: int,
  /** The budget's window (default 60,000 ms: per minute); tests shorten it. */
  PROBE_FLEET_MX_RCPT_WINDOW_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(3_600_000).optional()),
  /** The file the budget's grants are written to, read back at start ('off': none; the daemon's default: one per port in the temp directory). */
  PROBE_FLEET_MX_RCPT_JOURNAL: text,
});
export type ProbeEnv = z.infer<typeof probeEnvSchema>;

export function parseProbeEnv(env: NodeJS.ProcessEnv | Record<string, string | undefined>): ProbeEnv {
  const parsed = probeEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid probe environment: ${issues}`);
  }
  return parsed.data;
}

/** ProbeOptions from PROBE_* variables; unset variables keep the library defaults. */
export function probeOptionsFromEnv(env: NodeJS.ProcessEnv | Record<string, string | undefined>): ProbeOptions {
  const e = parseProbeEnv(env);
  const allowPrivate = e.PROBE_ALLOW_PRIVATE_NETWORKS === '1' || e.PROBE_ALLOW_PRIVATE_NETWORKS === 'true';
  if (allowPrivate && env.NODE_ENV === 'production') {
    throw new Error('PROBE_ALLOW_PRIVATE_NETWORKS is refused in production (NODE_ENV=production): it lets the probe reach private and loopback addresses');
  }
  if (e.PROBE_FLEET_MX_RCPT_WINDOW_MS !== undefined && e.PROBE_FLEET_MX_RCPT_WINDOW_MS < 60_000 && env.NODE_ENV === 'production') {
    throw new Error('PROBE_FLEET_MX_RCPT_WINDOW_MS below 60000 is refused in production (NODE_ENV=production): the per-minute budget would be spent once per shorter window, many times a minute');
  }
  const o: ProbeOptions = {
    allowPrivateNetworks: allowPrivate,
    dnsServers: e.PROBE_DNS_SERVERS,
    dnsTimeoutMs: e.PROBE_DNS_TIMEOUT_MS,
    smtpPort: e.PROBE_SMTP_PORT,
    sourceIps: e.PROBE_SOURCE_IP,
    heloName: e.PROBE_HELO,
    mailFrom: e.PROBE_MAIL_FROM,
    rdapBaseUrl: e.PROBE_RDAP_URL ?? null,
    dnsblZones: e.PROBE_DNSBL_ZONES,
    maxConnectionsPerIp: e.PROBE_MAX_CONN_PER_IP,
    maxRcptsPerSession: e.PROBE_MAX_RCPTS_PER_SESSION,
    globalConcurrency: e.PROBE_GLOBAL_CONCURRENCY,
    connectTimeoutMs: e.PROBE_CONNECT_TIMEOUT_MS,
    bannerTimeoutMs: e.PROBE_BANNER_TIMEOUT_MS,
    replyTimeoutMs: e.PROBE_REPLY_TIMEOUT_MS,
    mxHeadStartMs: e.PROBE_MX_HEAD_START_MS,
    mxRcptBudget: fleetRcptBudget(e),
  };
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as ProbeOptions;
}

/**
 * This node's share of the fleet-wide RCPT budget per MX IP: PROBE_FLEET_MX_RCPT_PER_MINUTE ÷
 * PROBE_FLEET_SIZE, rounded down, so that the shares of all nodes never add up to more than the budget.
 */
export function fleetRcptBudget(e: ProbeEnv): { rcpts: number; windowMs: number; fleet: { budget: number; size: number }; journal?: string } | undefined {
  const budget = e.PROBE_FLEET_MX_RCPT_PER_MINUTE;
  const size = e.PROBE_FLEET_SIZE;
  if (budget === undefined) {
    const stray = size !== undefined ? 'PROBE_FLEET_SIZE' : e.PROBE_FLEET_MX_RCPT_WINDOW_MS !== undefined ? 'PROBE_FLEET_MX_RCPT_WINDOW_MS' : null;
    if (stray) throw new Error(`invalid probe environment: ${stray} is set but PROBE_FLEET_MX_RCPT_PER_MINUTE (the fleet's RCPT budget per MX) is not`);
    return undefined;
  }
  if (size === undefined) {
    throw new Error('invalid probe environment: PROBE_FLEET_MX_RCPT_PER_MINUTE needs PROBE_FLEET_SIZE (how many nodes share the budget; each node keeps budget ÷ size)');
  }
  const rcpts = Math.floor(budget / size);
  if (rcpts < 1) {
    throw new Error(`invalid probe environment: PROBE_FLEET_MX_RCPT_PER_MINUTE=${budget} over PROBE_FLEET_SIZE=${size} nodes leaves less than one RCPT per node; raise the budget to at least ${size}`);
  }
  const journal = e.PROBE_FLEET_MX_RCPT_JOURNAL;
  return { rcpts, windowMs: e.PROBE_FLEET_MX_RCPT_WINDOW_MS ?? 60_000, fleet: { budget, size }, ...(journal && journal !== 'off' ? { journal } : {}) };
}

/**
 * The daemon's budget journal when PROBE_FLEET_MX_RCPT_JOURNAL is unset: one file per listening port
 * in the temp directory, so that the daemon started again on its port finds it. None on port 0 (a
 * new port each start, nothing to find) or when set to 'off'.
 */
export function daemonRcptJournal(env: NodeJS.ProcessEnv | Record<string, string | undefined>, port: number): string | undefined {
  const e = parseProbeEnv(env);
  if (e.PROBE_FLEET_MX_RCPT_JOURNAL === 'off') return undefined;
  if (e.PROBE_FLEET_MX_RCPT_JOURNAL) return e.PROBE_FLEET_MX_RCPT_JOURNAL;
  return port === 0 ? undefined : path.join(os.tmpdir(), `mailvet-probe-${port}.rcpt-journal`);
}

/** The shortest bearer token a production daemon (and a production app process, server/env.ts) accepts. */
export const MIN_PROBE_TOKEN_LENGTH = 32;

/** The daemon's settings: port, host, the (required) bearer token and, during a rotation, the previous one. */
export function daemonSettingsFromEnv(env: NodeJS.ProcessEnv | Record<string, string | undefined>): { port: number; host: string; token: string; previousToken?: string; drainMs: number } {
  const e = parseProbeEnv(env);
  if (!e.PROBE_TOKEN) throw new Error('PROBE_TOKEN is required to run the probe daemon');
  // The daemon listens on every address by default: a token someone can guess lets them probe
  // mailboxes from this node's IPs (its reputation) and read its metrics.
  if (env.NODE_ENV === 'production') {
    for (const [name, value] of [['PROBE_TOKEN', e.PROBE_TOKEN], ['PROBE_TOKEN_PREVIOUS', e.PROBE_TOKEN_PREVIOUS]] as const) {
      if (value !== undefined && value.length < MIN_PROBE_TOKEN_LENGTH) {
        throw new Error(`${name}: must be at least ${MIN_PROBE_TOKEN_LENGTH} characters in production (NODE_ENV=production): a guessable token lets anyone who reaches the daemon probe through it (e.g. openssl rand -hex 32)`);
      }
    }
  }
  return { port: e.PROBE_PORT, host: e.PROBE_HOST, token: e.PROBE_TOKEN, ...(e.PROBE_TOKEN_PREVIOUS ? { previousToken: e.PROBE_TOKEN_PREVIOUS } : {}), drainMs: e.PROBE_DRAIN_MS };
}
