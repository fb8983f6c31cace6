// Assembles the contract's VerificationResult from what the checks found. The verdict and score
// come from score.ts only; this module only copies and names fields.
import { verdictToResult, type Depth, type SmtpReply, type VerificationResult } from './contract';
import type { ParsedAddress } from './syntax/parse-address';
import { assess, type DnsFinding, type SmtpFinding } from './score';
import type { Provider } from './smtp/provider';

export interface Findings {
  email: string;
  parsed: ParsedAddress | null;
  depth: Depth;
  dns: DnsFinding | null;
  blockedAddress: boolean;
  mxHosts: string[];
  smtp: SmtpFinding | null;
  catchAll: boolean | null;
  /** Who runs the answering mail server (smtp/provider.ts), when its greeting or MX names say. */
  provider?: Provider | null;
  /** The answering server is a security gateway whose answers the verdict must not trust blindly. */
  gateway?: boolean;
  disposable: boolean;
  role: boolean;
  freeProvider: boolean;
  suggestion: string | null;
  domainAgeDays: number | null;
  dnsblZones: string[];
  mxHost: string | null;
  mxIp: string | null;
  replies: SmtpReply[];
  retries: number;
  detail: string | null;
  ms: number;
}

export function buildResult(f: Findings): VerificationResult {
  const { verdict, reason, score, confidence } = assess({
    depth: f.depth,
    syntaxOk: f.parsed !== null,
    addressLiteral: f.parsed?.literal ?? false,
    dns: f.dns,
    blockedAddress: f.blockedAddress,
    smtp: f.smtp,
    catchAll: f.catchAll,
    gateway: f.gateway ?? false,
    disposable: f.disposable,
    role: f.role,
    freeProvider: f.freeProvider,
    quotedLocal: f.parsed?.quoted ?? false,
    smtputf8: f.parsed?.smtputf8 ?? false,
    domainAgeDays: f.domainAgeDays,
    dnsblListings: f.dnsblZones.length,
  });
  const details = [f.detail, f.dnsblZones.length > 0 ? `mail server ${f.mxIp ?? ''} listed in ${f.dnsblZones.join(', ')}` : null].filter(Boolean);
  return {
    email: f.email,
    normalized: f.parsed?.normalized ?? null,
    verdict,
    result: verdictToResult[verdict],
    reason,
    catch_all: f.catchAll,
    disposable: f.disposable,
    role: f.role,
    free_provider: f.freeProvider,
    score,
    mx_hosts: f.mxHosts,
    suggestion: f.suggestion,
    smtputf8: f.parsed?.smtputf8 ?? false,
    quoted_local: f.parsed?.quoted ?? false,
    ms: Math.max(0, Math.round(f.ms)),
    is_syntax_valid: f.parsed !== null,
    is_dns_valid: f.dns === 'ok' || f.dns === 'null_mx' || f.dns === 'no_mx',
    is_mx_valid: f.dns === 'ok',
    is_smtp_valid: f.smtp === 'accepted',
    deliverability_score: score,
    role_detected: f.role,
    disposable_provider: f.disposable,
    domain_age_days: f.domainAgeDays,
    evidence: {
      depth: f.depth,
      mx_host: f.mxHost,
      mx_ip: f.mxIp,
      replies: f.replies,
      retries: f.retries,
      detail: details.length > 0 ? details.join('; ') : null,
      provider: f.provider ?? null,
      confidence,
    },
  };
}

/** Findings with nothing learned yet: the start of every verification (and of test fixtures). */
export function emptyFindings(email: string, depth: Depth, ms: number): Findings {
  return {
    email,
    parsed: null,
    depth,
    dns: null,
    blockedAddress: false,
    mxHosts: [],
    smtp: null,
    catchAll: null,
    disposable: false,
    role: false,
    freeProvider: false,
    suggestion: null,
    domainAgeDays: null,
    dnsblZones: [],
    mxHost: null,
    mxIp: null,
    replies: [],
    retries: 0,
    detail: null,
    ms,
  };
}
