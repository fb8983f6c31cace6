// ProbeOptions with every default filled in, in one place.
import os from 'node:os';
import type { ProbeOptions } from './types';

export interface ResolvedOptions {
  dnsServers: string[] | undefined;
  dnsTimeoutMs: number;
  smtpPort: number;
  sourceIps: string[];
  heloName: string;
  mailFrom: string;
  allowPrivateNetworks: boolean;
  connectTimeoutMs: number;
  bannerTimeoutMs: number;
  mxHeadStartMs: number;
  replyTimeoutMs: number;
  greylistDeadlineMs: { realtime: number; bulk: number };
  greylistRetryDelaysMs: number[] | undefined;
  maxConnectionsPerIp: number;
  maxRcptsPerSession: number;
  globalConcurrency: number;
  rdapBaseUrl: string | null;
  rdapTimeoutMs: number;
  dnsblZones: string[];
  catchAllCacheMs: number;
  maxDomainsInFlight: number;
  mxRcptBudget: { rcpts: number; windowMs: number; journal?: string } | null;
}

const positive = (v: number | undefined, fallback: number): number => (v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback);

export function resolveOptions(o: ProbeOptions = {}): ResolvedOptions {
  const heloName = o.heloName || os.hostname() || 'localhost';
  return {
    dnsServers: o.dnsServers && o.dnsServers.length > 0 ? o.dnsServers : undefined,
    dnsTimeoutMs: positive(o.dnsTimeoutMs, 3000),
    smtpPort: positive(o.smtpPort, 25),
    sourceIps: o.sourceIps ?? [],
    heloName,
    mailFrom: o.mailFrom || `verify@${heloName}`,
    allowPrivateNetworks: o.allowPrivateNetworks === true,
    connectTimeoutMs: positive(o.connectTimeoutMs, 10_000),
    bannerTimeoutMs: positive(o.bannerTimeoutMs, 15_000),
    mxHeadStartMs: o.mxHeadStartMs !== undefined && Number.isFinite(o.mxHeadStartMs) && o.mxHeadStartMs >= 0 ? o.mxHeadStartMs : 1500,
    replyTimeoutMs: positive(o.replyTimeoutMs, 10_000),
    greylistDeadlineMs: {
      realtime: positive(o.greylistDeadlineMs?.realtime, 15_000),
      bulk: positive(o.greylistDeadlineMs?.bulk, 600_000),
    },
    greylistRetryDelaysMs: o.greylistRetryDelaysMs,
    maxConnectionsPerIp: Math.floor(positive(o.maxConnectionsPerIp, 5)),
    maxRcptsPerSession: Math.floor(positive(o.maxRcptsPerSession, 20)),
    globalConcurrency: Math.floor(positive(o.globalConcurrency, 100)),
    rdapBaseUrl: o.rdapBaseUrl ?? null,
    rdapTimeoutMs: positive(o.rdapTimeoutMs, 1500),
    dnsblZones: o.dnsblZones ?? [],
    catchAllCacheMs: 3_600_000,
    maxDomainsInFlight: 500,
    mxRcptBudget: o.mxRcptBudget ? { rcpts: o.mxRcptBudget.rcpts, windowMs: o.mxRcptBudget.windowMs ?? 60_000, ...(o.mxRcptBudget.journal ? { journal: o.mxRcptBudget.journal } : {}) } : null,
  };
}
