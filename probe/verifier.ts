// The engine behind createVerifier(): syntax → DNS → (network guard) → SMTP, per domain, with the
// caches (DNS, RDAP, catch-all) and politeness shared by every call on one verifier.
import { setMaxListeners } from 'node:events';
import type { Depth, VerificationResult } from './contract';
import { produced } from './channel';
import { buildResult, emptyFindings, type Findings } from './build-result';
import { dnsblListings } from './dns/dnsbl';
import { lookupMailRoute, type MailRoute } from './dns/mx';
import { Rdap } from './dns/rdap';
import { DnsCache } from './dns/resolver';
import { hasDisposableMailServer, isDisposableDomain } from './misc/disposable';
import { isFreeProvider } from './misc/free-provider';
import { isRoleAccount } from './misc/role-account';
import { isBlockedAddress } from './net-guard';
import { resolveOptions, type ResolvedOptions } from './options';
import { randomLocalPart } from './smtp/catch-all';
import { PeerCatchAll } from './smtp/peer-catch-all';
import { PROVIDER_NAMES, isSecurityGateway, providerFromGreeting, providerFromMxNames, type Provider } from './smtp/provider';
import { PipeliningFallback } from './smtp/pipelining-fallback';
import { Politeness } from './smtp/politeness';
import { SessionPool } from './smtp/session-pool';
import type { MailboxOutcome, SmtpContext, Target } from './smtp/domain-probe/types';
import { probeDomain } from './smtp/probe-domain';
import { refusesUs } from './smtp/reply-codes';
import { retrySchedule } from './smtp/retry-schedule';
import { abortError, Semaphore } from './smtp/semaphore';
import { decideBySyntax } from './syntax/decide';
import { wireLocalPart, type ParsedAddress } from './syntax/parse-address';
import { suggestAddress } from './syntax/suggest-domain';
import type { ProbeOptions, Verifier, VerifyCallOptions } from './types';
import { Hint, raceAbort, SetupSlice, within } from './verifier-waits';

/**
 * Domain age and DNSBL listings are score hints: once the verdict is known they get this much
 * longer (from then on) before the result goes out without them, at every depth.
 */
const HINT_GRACE_MS = 300;
/** MX addresses one domain is checked on, in preference order (Postfix's smtp_mx_address_limit is 5). */
const MAX_MX_ADDRESSES = 10;
/** Longest a share marked "catch-all pending" waits for its peer's answer before asking the random mailbox itself. */
const PEER_CATCH_ALL_WAIT_MS = 15_000;
/**
 * Longest a batch's own setup (syntax of every address, starting every domain) holds the event loop
 * before it lets waiting I/O through: a batch of 10,000 addresses on hundreds of domains is tens of ms
 * of that, during which the sessions already out (its first domains', other requests') would wait.
 */
const SETUP_SLICE_MS = 4;

interface Entry {
  email: string;
  parsed: ParsedAddress;
}

type Emit = (r: VerificationResult) => void;

export class Engine implements Verifier {
  private readonly o: ResolvedOptions;
  private readonly dns: DnsCache;
  private readonly rdap: Rdap | null;
  private readonly politeness: Politeness;
  private readonly ctx: SmtpContext;
  /** Catch-all per domain; `ips`: the MX addresses that refused the random mailbox (value false). */
  /** domain → MX address → what the random mailbox said there, until when it is trusted. */
  private readonly catchAllCache = new Map<string, Map<string, { value: boolean; expires: number }>>();
  /** Who runs each domain's mail servers, as their greeting showed (smtp/provider.ts). */
  private readonly providerCache = new Map<string, { provider: Provider; expires: number }>();
  private readonly domainSlots: Semaphore;
  private readonly closing = new AbortController();
  private readonly peers = new PeerCatchAll(PEER_CATCH_ALL_WAIT_MS);

  constructor(opts: ProbeOptions = {}) {
    this.o = resolveOptions(opts);
    this.dns = new DnsCache({ servers: this.o.dnsServers, timeoutMs: this.o.dnsTimeoutMs });
    this.rdap = this.o.rdapBaseUrl ? new Rdap({ baseUrl: this.o.rdapBaseUrl, timeoutMs: this.o.rdapTimeoutMs, allowPrivateNetworks: this.o.allowPrivateNetworks }) : null;
    this.politeness = new Politeness({
      maxConnectionsPerIp: this.o.maxConnectionsPerIp,
      maxRcptsPerSession: this.o.maxRcptsPerSession,
      globalConcurrency: this.o.globalConcurrency,
      sourceIps: this.o.sourceIps,
      rcptBudget: this.o.mxRcptBudget ?? undefined,
    });
    this.ctx = {
      politeness: this.politeness,
      port: this.o.smtpPort,
      heloName: this.o.heloName,
      mailFrom: this.o.mailFrom,
      connectTimeoutMs: this.o.connectTimeoutMs,
      bannerTimeoutMs: this.o.bannerTimeoutMs,
      headStartMs: this.o.mxHeadStartMs,
      replyTimeoutMs: this.o.replyTimeoutMs,
      maxConnectionsPerIp: this.o.maxConnectionsPerIp,
      noTlsIps: new Set(),
      pipeliningFallback: new PipeliningFallback(),
      tlsDemandedIps: new Set(),
      pool: new SessionPool(),
      unreachableUntil: new Map(),
    };
    this.domainSlots = new Semaphore(this.o.maxDomainsInFlight);
  }

  async verify(email: string, o: VerifyCallOptions = {}): Promise<VerificationResult> {
    for await (const r of this.verifyBatch([email], o)) return r;
    throw abortError();
  }

  async *verifyBatch(emails: string[], o: VerifyCallOptions = {}): AsyncGenerator<VerificationResult> {
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, this.closing.signal, ...(o.signal ? [o.signal] : [])]);
    setMaxListeners(0, signal); // every domain, session and wait of the batch listens to it
    yield* produced<VerificationResult>(stop, (push) => this.runBatch(emails, o.depth ?? 'smtp', o.mode ?? 'realtime', signal, push, o.catchAllHints ?? {}, new Set(o.catchAllPending)), { awaitProducer: true });
  }

  answerCatchAll(domainKey: string, catchAll: boolean | null): void {
    this.peers.answer(domainKey.trim().toLowerCase(), catchAll);
  }

  stats(): { maxConcurrentPerIp: number; sessions: number; rcpts: number } {
    return { ...this.politeness.counters };
  }

  async close(): Promise<void> {
    this.closing.abort();
    this.dns.close();
    this.politeness.close();
  }

  private async runBatch(emails: string[], depth: Depth, mode: 'realtime' | 'bulk', signal: AbortSignal, emit: Emit, hints: Readonly<Record<string, boolean>>, pending: ReadonlySet<string>): Promise<void> {
    if (signal.aborted) throw abortError();
    const start = Date.now();
    const slice = new SetupSlice(SETUP_SLICE_MS);
    const groups = new Map<string, Entry[]>();
    for (const email of emails) {
      if (slice.due()) await slice.pause(signal);
      // Bad syntax and address literals end here (syntax/decide.ts, also used without a daemon).
      const syntax = decideBySyntax(email, depth, Date.now() - start);
      if (syntax.decided) {
        emit(syntax.result);
        continue;
      }
      const list = groups.get(syntax.parsed.domain) ?? [];
      list.push({ email, parsed: syntax.parsed });
      groups.set(syntax.parsed.domain, list);
    }
    // Biggest domains first: they are the longest chains of sessions.
    const ordered = [...groups].sort((a, b) => b[1].length - a[1].length);
    const domains: Promise<void>[] = [];
    for (const [domain, entries] of ordered) {
      const done = this.domainSlots.run(() => this.verifyDomain(domain, entries, depth, mode, signal, start, emit, Object.hasOwn(hints, domain) ? hints[domain] : undefined, pending.size > 0 ? peerKeyOf(entries, pending) : null), signal);
      done.catch(() => undefined); // its failure is the batch's (below), not an unhandled rejection while the rest start
      domains.push(done);
      if (slice.due()) await slice.pause(signal);
    }
    await raceAbort(Promise.all(domains), signal);
  }

  private async verifyDomain(domain: string, entries: Entry[], depth: Depth, mode: 'realtime' | 'bulk', signal: AbortSignal, start: number, emit: Emit, catchAllHint: boolean | undefined, peerKey: string | null): Promise<void> {
    const disposable = isDisposableDomain(domain);
    const freeProvider = isFreeProvider(domain);
    const base = (e: Entry): Findings => ({
      ...emptyFindings(e.email, depth, 0),
      parsed: e.parsed,
      disposable,
      freeProvider,
      role: isRoleAccount(e.parsed.local),
    });
    const finish = (e: Entry, f: Partial<Findings>): void => emit(buildResult({ ...base(e), ...f, ms: Date.now() - start }));

    if (depth === 'syntax') {
      for (const e of entries) finish(e, { suggestion: suggestAddress(e.parsed.local, domain, null), detail: 'syntax only: DNS and SMTP not checked' });
      return;
    }

    const agePromise = this.rdap ? this.rdap.ageDays(domain) : Promise.resolve(null);
    const route = await raceAbort(lookupMailRoute(this.dns, domain, mode === 'realtime', (ip) => !isBlockedAddress(ip, this.o.allowPrivateNetworks)), signal);
    if (route.kind !== 'mx') {
      const hasMail = route.kind === 'dns_error' ? null : false;
      const age = route.kind === 'no_domain' ? null : await within(agePromise, HINT_GRACE_MS, null);
      for (const e of entries) {
        finish(e, { dns: route.kind, suggestion: suggestAddress(e.parsed.local, domain, hasMail), domainAgeDays: age, detail: route.detail });
      }
      return;
    }

    const mxHosts = [...route.hosts.map((h) => h.host), ...(route.unresolved ?? [])];
    const targets = this.targetsOf(route);
    // A domain whose mail a disposable provider receives (MX mail.mailinator.com) is disposable too.
    const common: Partial<Findings> = { dns: 'ok', mxHosts, disposable: disposable || hasDisposableMailServer(mxHosts) };
    if (targets.length === 0) {
      const age = await within(agePromise, HINT_GRACE_MS, null);
      const ips = route.hosts.flatMap((h) => h.ips).join(', ');
      for (const e of entries) {
        finish(e, { ...common, blockedAddress: true, domainAgeDays: age, suggestion: suggestAddress(e.parsed.local, domain, true), detail: `refused to connect to a private or reserved address (${ips})` });
      }
      return;
    }
    const primary = targets[0] ?? { host: '', ip: '', priority: 0 };
    const listingsOf = (ip: string | null): Promise<string[]> =>
      this.o.dnsblZones.length > 0 ? dnsblListings(this.dns, ip ?? primary.ip, this.o.dnsblZones) : Promise.resolve([]);
    const primaryListings = listingsOf(primary.ip);
    // Per MX address, asked once for the domain's whole batch.
    const listingHints = new Map<string, Hint<string[]>>([[primary.ip, new Hint(primaryListings, [])]]);
    const listingHint = (ip: string | null): Hint<string[]> => {
      const key = ip ?? primary.ip;
      let hint = listingHints.get(key);
      if (!hint) listingHints.set(key, (hint = new Hint(listingsOf(key), [])));
      return hint;
    };
    const ageHint = new Hint(agePromise, null);

    if (depth === 'mx') {
      // At depth mx, age and blocklists are all the score has besides DNS: they are waited for (each
      // bounded by its own timeout, RDAP's 1.5 s), so the same address scores the same twice.
      const [age, zones] = await Promise.all([agePromise, primaryListings]);
      for (const e of entries) {
        finish(e, {
          ...common,
          domainAgeDays: age,
          dnsblZones: zones,
          mxHost: primary.host,
          mxIp: primary.ip,
          suggestion: suggestAddress(e.parsed.local, domain, true),
          detail: route.implicit ? 'no MX record: the domain itself receives mail (implicit MX)' : null,
        });
      }
      return;
    }

    // SMTP: one RCPT per distinct mailbox, all of the domain's mailboxes in shared sessions.
    const byAddress = new Map<string, Entry[]>();
    for (const e of entries) {
      const rcpt = `${wireLocalPart(e.parsed.local)}@${domain}`;
      byAddress.set(rcpt, [...(byAddress.get(rcpt) ?? []), e]);
    }
    // What the random mailbox said at each MX address in an earlier check (each holds there only).
    const knownAt = this.catchAllKnownAt(domain);
    // A fleet peer's answer (ProbeClient's hint) counts as an earlier random-mailbox check; so does
    // one that is still to come from the peer asking it now (a share sent "catch-all pending").
    const knownCatchAll = catchAllHint ?? null;
    const peerCatchAll = knownCatchAll === null && peerKey !== null ? this.peers.wait(peerKey) : undefined;
    let earlierCatchAll = knownCatchAll ?? (knownAt.size === 0 ? null : [...knownAt.values()].includes(true));
    void peerCatchAll?.then((v) => (earlierCatchAll = v));
    const deadlineMs = this.o.greylistDeadlineMs[mode];
    const pending: Promise<void>[] = [];
    // The provider of the server that answered, classified once per (domain, server) from its
    // greeting (cached); that server's name is a hint; all the MX names only when none answered.
    const mxHint = providerFromMxNames(mxHosts);
    const providerOf = (outcome: MailboxOutcome): Provider | null => {
      const key = `${domain} ${outcome.mxHost ?? ''}`;
      const greeted = providerFromGreeting(outcome.replies);
      if (greeted) this.rememberProvider(key, greeted);
      return greeted ?? this.knownProvider(key) ?? (outcome.mxHost ? providerFromMxNames([outcome.mxHost]) : mxHint);
    };
    const onSettled = (address: string, outcome: MailboxOutcome, catchAll: boolean | null): void => {
      const provider = providerOf(outcome);
      // A gateway refusing us (a blocklist, our sender) says nothing it hides about the mailbox: plain policy_block.
      const decisive = outcome.replies[outcome.replies.length - 1];
      const aboutUs = outcome.finding === 'policy_block' && decisive !== undefined && refusesUs(decisive);
      const gateway = isSecurityGateway(provider) && !aboutUs;
      const note = aboutUs ? null : providerNote(provider, outcome, catchAll);
      const listings = listingHint(outcome.mxIp);
      const report = (age: number | null, zones: string[]): void => {
        for (const e of byAddress.get(address) ?? []) {
          finish(e, {
            ...common,
            smtp: outcome.finding,
            catchAll,
            provider,
            gateway,
            domainAgeDays: age,
            dnsblZones: zones,
            mxHost: outcome.mxHost,
            mxIp: outcome.mxIp,
            replies: outcome.replies,
            retries: outcome.retries,
            detail:
              [note, outcome.detail ?? (earlierCatchAll !== null && outcome.finding === 'accepted' ? `catch-all ${earlierCatchAll ? 'confirmed' : 'ruled out'} by an earlier random-mailbox check` : null)]
                .filter(Boolean)
                .join('; ') || null,
            suggestion: suggestAddress(e.parsed.local, domain, true),
          });
        }
      };
      // Both hints in (the usual case after the first answers): no timer, no promise per address.
      if (ageHint.settled && listings.settled) report(ageHint.value, listings.value);
      else pending.push(Promise.all([ageHint.within(HINT_GRACE_MS), listings.within(HINT_GRACE_MS)]).then(([age, zones]) => report(age, zones)));
    };
    const { catchAllByIp } = await probeDomain({
      targets,
      addresses: [...byAddress.keys()],
      randomAddress: knownCatchAll === null && !peerCatchAll ? `${randomLocalPart()}@${domain}` : null,
      knownCatchAll,
      peerCatchAll,
      knownCatchAllAt: knownAt.size > 0 ? knownAt : undefined,
      ctx: this.ctx,
      deadlineMs,
      retryDelaysMs: retrySchedule(deadlineMs, this.o.greylistRetryDelaysMs),
      urgent: mode === 'realtime',
      signal,
      onSettled,
    });
    // Only what was asked in this check: an answer taken from the cache keeps its first expiry.
    for (const [ip, value] of catchAllByIp) if (value !== null) this.rememberCatchAll(domain, ip, value);
    await Promise.all(pending);
  }

  /** `key`: the domain and the server that answered ("domain host"). */
  private knownProvider(key: string): Provider | null {
    const c = this.providerCache.get(key);
    return c && c.expires > Date.now() ? c.provider : null;
  }

  private rememberProvider(key: string, provider: Provider): void {
    if (this.knownProvider(key) === provider) return;
    this.providerCache.delete(key);
    this.providerCache.set(key, { provider, expires: Date.now() + this.o.catchAllCacheMs });
    if (this.providerCache.size > 100_000) {
      const oldest = this.providerCache.keys().next();
      if (!oldest.done) this.providerCache.delete(oldest.value);
    }
  }

  /** The unexpired random-mailbox answers of `domain`, per MX address. */
  private catchAllKnownAt(domain: string): Map<string, boolean> {
    const known = new Map<string, boolean>();
    const now = Date.now();
    for (const [ip, a] of this.catchAllCache.get(domain) ?? []) if (a.expires > now) known.set(ip, a.value);
    return known;
  }

  private rememberCatchAll(domain: string, ip: string, value: boolean): void {
    let byIp = this.catchAllCache.get(domain);
    if (byIp) this.catchAllCache.delete(domain); // most recently used last
    else byIp = new Map();
    byIp.set(ip, { value, expires: Date.now() + this.o.catchAllCacheMs });
    this.catchAllCache.set(domain, byIp);
    if (this.catchAllCache.size > 100_000) {
      const oldest = this.catchAllCache.keys().next();
      if (!oldest.done) this.catchAllCache.delete(oldest.value);
    }
  }

  /**
   * MX addresses in priority order, minus those the network guard refuses, at most MAX_MX_ADDRESSES:
   * a domain publishing dozens (or a hostile one, hundreds) would otherwise have one check connect to
   * every address of its best preference.
   */
  private targetsOf(route: Extract<MailRoute, { kind: 'mx' }>): Target[] {
    return route.hosts
      .flatMap((h) => h.ips.filter((ip) => !isBlockedAddress(ip, this.o.allowPrivateNetworks)).map((ip) => ({ host: h.host, ip, priority: h.priority })))
      .slice(0, MAX_MX_ADDRESSES);
  }
}

/** The client's key of a domain group (its addresses' domain part, lower case) when it is marked pending. */
function peerKeyOf(entries: Entry[], pending: ReadonlySet<string>): string | null {
  for (const e of entries) {
    const key = e.email.slice(e.email.lastIndexOf('@') + 1).trim().toLowerCase();
    if (pending.has(key)) return key;
  }
  return null;
}

/** What the provider means for this answer, in words (null when it changes nothing). */
function providerNote(provider: Provider | null, outcome: MailboxOutcome, catchAll: boolean | null): string | null {
  if (provider === null) return null;
  const name = PROVIDER_NAMES[provider];
  if (isSecurityGateway(provider)) {
    if (outcome.finding === 'accepted' && catchAll === true) return `${name} security gateway: it accepts every address at RCPT, made-up ones too, and decides later, so the mailbox cannot be verified there`;
    if (outcome.finding === 'accepted' && catchAll === null) return `${name} security gateway: it gave no plain answer for a made-up address, so its "accepted" cannot be trusted`;
    if (outcome.finding === 'policy_block') return `${name} security gateway: it answers by policy, which says nothing about the mailbox`;
    if ((outcome.finding === 'mailbox_disabled' || outcome.finding === 'mailbox_full') && catchAll !== false) return `${name} security gateway: it did not refuse a made-up address, so its word on this mailbox cannot be trusted`;
    return null;
  }
  if (provider === 'microsoft365') {
    if (outcome.finding === 'accepted' && catchAll === true) return 'Microsoft 365 tenant in Internal Relay: it accepts every address, made-up ones too';
    if (outcome.finding === 'mailbox_not_found' && outcome.replies.some((r) => r.enhanced === '5.4.1')) return 'Microsoft 365 tenant that refuses recipients it does not know (directory-based edge blocking)';
  }
  return null;
}
