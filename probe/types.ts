// The probe library's public option and verifier types. A leaf module: index.ts re-exports them, and
// verifier.ts/options.ts import them from here (no index <-> verifier <-> options circle).
import type { Depth, VerificationResult } from './contract';

export interface ProbeOptions {
  /** DNS servers, e.g. ['127.0.0.1:5353']; default: the system resolvers. */
  dnsServers?: string[];
  /** Per DNS question; default 3000. */
  dnsTimeoutMs?: number;
  /** Default 25 (tests use a high port on 127.x.x.x addresses). */
  smtpPort?: number;
  /**
   * Local addresses outgoing SMTP is bound to (PROBE_SOURCE_IP): at most one IPv4 and one IPv6,
   * each used toward MX addresses of its family. Default: none (the kernel chooses).
   */
  sourceIps?: string[];
  /** Default os.hostname(). */
  heloName?: string;
  /** Default `verify@${heloName}`. */
  mailFrom?: string;
  /** Default false: MX/A in private, loopback, link-local, CGNAT or metadata ranges gives unknown/blocked_address. */
  allowPrivateNetworks?: boolean;
  /** Default 10000. */
  connectTimeoutMs?: number;
  /** Default 15000 (tarpits). */
  bannerTimeoutMs?: number;
  /**
   * Head start of an MX address: when it has not connected and greeted within this many ms, the
   * next address is tried in parallel and the first final answer wins. Default 1500; 0 turns the
   * race off (the next address is tried only after the connect or banner timeout).
   */
  mxHeadStartMs?: number;
  /** Default 10000, for every reply after the banner. */
  replyTimeoutMs?: number;
  /** How long 4xx answers are retried: default 15 s for realtime, 10 min for bulk. */
  greylistDeadlineMs?: { realtime: number; bulk: number };
  /** Replaces the retry ladder (first after a few seconds, then minutes apart, fitted to the deadline). */
  greylistRetryDelaysMs?: number[];
  /** Default 5 concurrent connections per MX IP (lowered for a while after a 421). */
  maxConnectionsPerIp?: number;
  /** Default 20 RCPTs per session (lowered when a server answers 452). */
  maxRcptsPerSession?: number;
  /** Default 100 concurrent SMTP sessions overall. */
  globalConcurrency?: number;
  /** RDAP base URL (e.g. 'https://rdap.org'); null or unset disables domain age. */
  rdapBaseUrl?: string | null;
  /** RDAP request timeout; default 1500 (an extra, optional field). */
  rdapTimeoutMs?: number;
  /** DNSBL zones to check MX IPs against; default none. */
  dnsblZones?: string[];
  /**
   * This process's share of a fleet-wide RCPT budget per MX IP: at most `rcpts` RCPT commands
   * toward one MX address in any window of `windowMs` (default 60,000), whichever source address
   * sends them; RCPTs wait for room, nothing is refused. Unset: no budget. The daemon fills it from
   * PROBE_FLEET_MX_RCPT_PER_MINUTE ÷ PROBE_FLEET_SIZE.
   */
  mxRcptBudget?: {
    rcpts: number;
    windowMs?: number;
    /** The fleet's budget and size this share was cut from (the daemon reports them to clients, which check PROBE_URLS against the size). */
    fleet?: { budget: number; size: number };
    /**
     * A file every grant is written to before its RCPTs go out, so that a node started again within a
     * window counts what it sent before (kill -9 included) instead of spending its share twice.
     * Unset: the budget holds within this process only. The daemon sets it (PROBE_FLEET_MX_RCPT_JOURNAL).
     */
    journal?: string;
  };
}

export interface VerifyCallOptions {
  depth?: Depth;
  mode?: 'realtime' | 'bulk';
  signal?: AbortSignal;
  /** Catch-all answers already known elsewhere in the fleet (A-label domain → accepted a random mailbox). */
  catchAllHints?: Readonly<Record<string, boolean>>;
  /**
   * Domains (the address's domain part, lower case, as ProbeClient keys them) whose random mailbox a
   * fleet peer is asking now: no random mailbox is asked for them here, and their "accepted" answers
   * wait for the peer's answer (`answerCatchAll`).
   */
  catchAllPending?: readonly string[];
}

export interface Verifier {
  verify(email: string, o?: VerifyCallOptions): Promise<VerificationResult>;
  /** Results in completion order (not input order). Groups by domain internally so ONE SMTP session serves many RCPTs of a domain (+ one random-mailbox RCPT per domain for catch-all). */
  verifyBatch(emails: string[], o?: VerifyCallOptions): AsyncIterable<VerificationResult>;
  /** A fleet peer's catch-all answer for a domain sent as catchAllPending (null: it learnt nothing: ask here). */
  answerCatchAll(domainKey: string, catchAll: boolean | null): void;
  stats(): { maxConcurrentPerIp: number; sessions: number; rcpts: number };
  close(): Promise<void>;
}
