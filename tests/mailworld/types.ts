// The declarative shape of a simulated mail internet. A world is a list of DomainSpec; the world
// derives DNS zones, SMTP hosts and the ground truth for every listed address from it.
import type { Reason, Verdict } from '../../probe/contract';

/** How one SMTP host (one 127.x.y.z address) behaves at connection level. */
export interface ServerSpec {
  /**
   * smtp: a normal server (default).
   * refused: nothing listens on the address (TCP connect is refused).
   * silent: accepts TCP, never sends a banner.
   * busy: greets with `421 4.3.2` and closes (a server that is always temporarily unavailable).
   * policy-banner: greets with `554 5.7.1` (reputation block at connect), answers 503 to everything but QUIT.
   */
  mode?: 'smtp' | 'refused' | 'silent' | 'busy' | 'policy-banner';
  /** Extra wait before the 220 banner (a tarpit), on top of replyDelayMs. */
  bannerDelayMs?: number;
  /** Advertise STARTTLS (a self-signed certificate generated at start). */
  starttls?: boolean;
  /** Refuse MAIL FROM with `530 5.7.0` until the session is TLS. Implies starttls. */
  requireTls?: boolean;
  /**
   * STARTTLS works but is not advertised in the EHLO reply (a misconfigured server: with requireTls it
   * answers MAIL `530 5.7.0 Must issue a STARTTLS command first` while never offering it).
   */
  hiddenStarttls?: boolean;
  /** Advertise PIPELINING (default true). Pipelining without it is recorded as a violation. */
  pipelining?: boolean;
  /** Answer EHLO (default true); false answers `502 5.5.2` so the client must fall back to HELO. */
  ehlo?: boolean;
  /** More than this many concurrent connections from one client IP get `421 4.7.0` and a close. */
  maxConnectionsPerIp?: number;
  /** RCPT commands beyond this many in one session (connection) get `452 4.5.3`. */
  maxRcptsPerSession?: number;
  /** After this many RCPTs in a session, the next one gets `421 4.4.2 … closing` and the connection closes. */
  closeAfterRcpts?: number;
  /**
   * An anti-harvesting drop: at an unknown recipient the host hangs up (closes the connection, no
   * reply) instead of refusing it; the replies before it are sent (ground truth: unknown/smtp_unreachable).
   */
  hangUpAtUnknown?: boolean;
  /**
   * Drops every RCPT command silently (no reply at all) and answers QUIT `250 2.0.0 Bye` instead of
   * 221 before the close (ground truth: unknown/smtp_unreachable: it never says anything of a mailbox).
   */
  dropRcpts?: boolean;
  /**
   * Checks the sender slowly (MAIL's reply comes PREMATURE_SENDER_CHECK_MS late) and answers each RCPT
   * that arrives meanwhile (pipelined behind MAIL) at once with a bare `250 Ok`, unchecked, before
   * MAIL's reply; after MAIL's reply it answers those RCPTs again with their real answers, one every
   * PREMATURE_RCPT_CHECK_MS (RFC 2920 broken: replies out of order and more of them than commands).
   * RCPTs sent after MAIL's reply (one command at a time) get their real answer once.
   */
  prematureRcptAnswers?: boolean;
  /** Multi-line banner and Gmail-style multi-line 550 5.1.1 for unknown users. */
  multiline?: boolean;
  /**
   * The EHLO reply's lines mix separators: a space after the code of a middle line ("250-name",
   * "250 PIPELINING", "250-SIZE …", "250 SMTPUTF8"), so it reads as several complete replies.
   */
  ehloMixedSeparators?: boolean;
  /** false: no ENHANCEDSTATUSCODES, replies carry no enhanced codes ("550 No such user here"). */
  enhancedCodes?: boolean;
  /** Refuse every MAIL FROM with `550 5.7.1 Sender address rejected: Access denied` (policy). */
  rejectMailFrom?: boolean;
  /** The host's address is listed in the world's DNSBL zone (answers 127.0.0.2). */
  dnsblListed?: boolean;
  /**
   * A store-and-forward backup MX that does not know the recipients: every RCPT for a domain it
   * serves gets `250`, existing or not (the ground truth: catch_all).
   */
  acceptAll?: boolean;
  /** Extra wait before every reply after the greeting (a slow server behind a quick banner). */
  slowRepliesMs?: number;
  /**
   * Whose software the host runs, as its greeting and replies show:
   * - m365: Microsoft 365 (Exchange Online Protection) greeting; with the domain's
   *   `rejectUnknown: 'm365'` unknown recipients get `550 5.4.1 Recipient address rejected: Access denied`.
   * - proofpoint / mimecast / barracuda: a security gateway's greeting.
   */
  persona?: 'm365' | 'proofpoint' | 'mimecast' | 'barracuda';
}

export interface MxSpec {
  /** MX exchange host name (gets an A record when ip is set). */
  host: string;
  priority: number;
  /**
   * 127.x.y.z address of the host (an A record), or '::1' (an AAAA record only: the host is reached
   * over IPv6), or an unspecified address, '0.0.0.0' or '::' (DNS only, no host: nobody may connect
   * there, the ground truth is unknown/blocked_address when no other MX has an address); omit to
   * publish an MX whose host has no address.
   */
  ip?: string;
  /** The MX host name is an alias: a CNAME to this name, which carries the address (DNS answers both, as a resolver does). */
  cname?: string;
  server?: ServerSpec;
}

/** State of an existing mailbox. Local parts not listed do not exist (550 5.1.1). */
export type MailboxState =
  | 'ok' // 250 2.1.5
  | 'full' // 552 5.2.2
  | 'full-temp' // 452 4.2.2
  | 'disabled'; // 550 5.2.1

export interface DomainSpec {
  /** Domain name (lower case, no trailing dot). */
  domain: string;
  /** Short scenario label, used in test names and bench tables. */
  scenario: string;
  /** What the DNS server does for every name under this domain (default ok). */
  dns?: 'ok' | 'nxdomain' | 'servfail' | 'timeout';
  /**
   * A resolver that has not resolved these names yet: the first N questions about each (name, type)
   * under the domain are answered SERVFAIL, the next ones with the records (ground truth unchanged).
   */
  servfailFirst?: number;
  /** MX records. Empty or missing = no MX record (see aRecords for implicit MX). */
  mx?: MxSpec[];
  /** Publish the null MX `0 .` (RFC 7505). */
  nullMx?: boolean;
  /** A records on the domain itself (implicit MX when there is no MX); '::1' is an AAAA record (implicit MX over IPv6). */
  aRecords?: { ip: string; server?: ServerSpec }[];
  /** Every RCPT is accepted. */
  catchAll?: boolean;
  /** Every RCPT gets `550 5.7.1` (reputation/policy block). */
  policyBlock?: boolean;
  /**
   * Every RCPT gets this refusal (a whole reply line, e.g. `550 5.1.1 Sender not authorized` or a bare
   * `550 … blocked using zen.spamhaus.org`): a refusal about us, worded or coded like "no such user"
   * (ground truth: unknown/policy_block, never undeliverable).
   */
  policyRefusal?: string;
  /**
   * How unknown recipients are refused (default Postfix-style `550 5.1.1 … User unknown`):
   * - m365: Microsoft 365 directory-based edge blocking, `550 5.4.1 Recipient address rejected: Access denied`;
   * - policy: a gateway's policy code, `550 5.7.1 Recipient rejected by policy` (says nothing about the mailbox).
   */
  rejectUnknown?: 'm365' | 'policy';
  /**
   * Greylisting: the first RCPT of each (client ip, MAIL FROM, RCPT) triplet gets `451 4.7.1`, and
   * so does every repeat until this many ms have passed since it was first seen. Infinity = forever.
   */
  greylistMs?: number;
  /** The domain is a disposable-mail provider (ground truth only: the probe uses its npm data). */
  disposable?: boolean;
  /** Existing mailboxes by local part (case-insensitive). */
  mailboxes?: Record<string, MailboxState>;
  /** Local parts to verify, existing or not; each gets a ground-truth entry. */
  addresses: string[];
  /** Registration date for the world's RDAP server (days before now; default 3650). */
  registeredDaysAgo?: number;
}

export interface Truth {
  verdict: Verdict;
  reason: Reason;
  domain: string;
  scenario: string;
  /** Ground-truth flags the verifier should also report. */
  role: boolean;
  disposable: boolean;
}

export interface HostCounters {
  ip: string;
  connections: number;
  /** Currently open connections. */
  current: number;
  maxConcurrent: number;
  sessions: number;
  rcpts: number;
  /** When each RCPT command arrived (Date.now() ms, in order): RCPTs per time window, e.g. a fleet's RCPT budget. */
  rcptTimes: number[];
  maxRcptsPerSession: number;
  tlsUpgrades: number;
  /** QUIT commands received. */
  quits: number;
  /** Connections that ended before the server said anything (the client gave up on a slow greeting). */
  closedBeforeBanner: number;
  /** Client (source) IP → connections accepted from it, open now, and the most it had open at once here. */
  byClient: Map<string, { connections: number; open: number; maxConcurrent: number }>;
}

export interface WorldCounters {
  /** TCP connections accepted by all SMTP hosts together. */
  connections: number;
  /** Highest number of simultaneous connections seen on any one MX IP. */
  maxConcurrentPerIp: number;
  /** Highest number of RCPT commands seen in any one SMTP session. */
  maxRcptsPerSession: number;
  /** RCPT commands seen in total. */
  rcpts: number;
  /** STARTTLS upgrades completed. */
  tlsUpgrades: number;
  /** Commands that arrived while an earlier reply was still pending (the client pipelined). */
  pipelinedCommands: number;
  /** Replies sent, by code (e.g. '421', '451', '452'). */
  repliesByCode: Map<string, number>;
  /** Protocol misuse seen (pipelining without the extension, DATA, commands out of order, …). */
  violations: string[];
  /** DNS queries answered or deliberately dropped. */
  dnsQueries: number;
  /** RDAP HTTP requests. */
  rdapQueries: number;
  perIp: Map<string, HostCounters>;
}
