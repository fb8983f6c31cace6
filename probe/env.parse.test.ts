import { describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { daemonRcptJournal, daemonSettingsFromEnv, probeOptionsFromEnv } from './env';

describe('probe env', () => {
  it('maps PROBE_* variables to ProbeOptions, leaving unset ones to the defaults', () => {
    expect(
      probeOptionsFromEnv({
        PROBE_ALLOW_PRIVATE_NETWORKS: '1',
        PROBE_DNS_SERVERS: '127.0.0.1:5353, 127.0.0.2:53',
        PROBE_SMTP_PORT: '2525',
        PROBE_HELO: 'probe.example',
        PROBE_MAIL_FROM: 'check@probe.example',
        PROBE_RDAP_URL: 'https://rdap.org',
        PROBE_DNSBL_ZONES: 'zen.spamhaus.org,bl.spamcop.net',
        PROBE_MAX_CONN_PER_IP: '3',
        PROBE_MAX_RCPTS_PER_SESSION: '10',
        PROBE_GLOBAL_CONCURRENCY: '50',
      }),
    ).toEqual({
      allowPrivateNetworks: true,
      dnsServers: ['127.0.0.1:5353', '127.0.0.2:53'],
      smtpPort: 2525,
      heloName: 'probe.example',
      mailFrom: 'check@probe.example',
      rdapBaseUrl: 'https://rdap.org',
      dnsblZones: ['zen.spamhaus.org', 'bl.spamcop.net'],
      maxConnectionsPerIp: 3,
      maxRcptsPerSession: 10,
      globalConcurrency: 50,
    });
    expect(probeOptionsFromEnv({})).toEqual({ allowPrivateNetworks: false, rdapBaseUrl: null });
    expect(probeOptionsFromEnv({ PROBE_ALLOW_PRIVATE_NETWORKS: '', PROBE_SMTP_PORT: '' })).toEqual({ allowPrivateNetworks: false, rdapBaseUrl: null });
  });

  it('refuses PROBE_ALLOW_PRIVATE_NETWORKS in production', () => {
    expect(() => probeOptionsFromEnv({ NODE_ENV: 'production', PROBE_ALLOW_PRIVATE_NETWORKS: '1' })).toThrow(/PROBE_ALLOW_PRIVATE_NETWORKS is refused in production/);
    expect(() => probeOptionsFromEnv({ NODE_ENV: 'production', PROBE_ALLOW_PRIVATE_NETWORKS: 'true' })).toThrow(/refused in production/);
    expect(probeOptionsFromEnv({ NODE_ENV: 'production', PROBE_ALLOW_PRIVATE_NETWORKS: '0' })).toEqual({ allowPrivateNetworks: false, rdapBaseUrl: null });
    expect(probeOptionsFromEnv({ NODE_ENV: 'test', PROBE_ALLOW_PRIVATE_NETWORKS: '1' })).toEqual({ allowPrivateNetworks: true, rdapBaseUrl: null });
  });

  it('refuses a fleet budget window shorter than a minute in production (the per-minute budget would be spent many times a minute)', () => {
    const fleet = { PROBE_FLEET_MX_RCPT_PER_MINUTE: '300', PROBE_FLEET_SIZE: '3' };
    expect(() => probeOptionsFromEnv({ NODE_ENV: 'production', ...fleet, PROBE_FLEET_MX_RCPT_WINDOW_MS: '1000' })).toThrow(/PROBE_FLEET_MX_RCPT_WINDOW_MS below 60000 is refused in production/);
    expect(probeOptionsFromEnv({ NODE_ENV: 'production', ...fleet, PROBE_FLEET_MX_RCPT_WINDOW_MS: '120000' }).mxRcptBudget).toMatchObject({ rcpts: 100, windowMs: 120_000 });
    expect(probeOptionsFromEnv({ NODE_ENV: 'test', ...fleet, PROBE_FLEET_MX_RCPT_WINDOW_MS: '1000' }).mxRcptBudget).toMatchObject({ rcpts: 100, windowMs: 1000 });
  });

  it('rejects nonsense with the variable name', () => {
    expect(() => probeOptionsFromEnv({ PROBE_SMTP_PORT: 'abc' })).toThrow(/PROBE_SMTP_PORT/);
    expect(() => probeOptionsFromEnv({ PROBE_MAX_CONN_PER_IP: '0' })).toThrow(/PROBE_MAX_CONN_PER_IP/);
  });

  it('reads PROBE_SOURCE_IP as the node identity: one IPv4 and/or one IPv6 address', () => {
    expect(probeOptionsFromEnv({ PROBE_SOURCE_IP: '198.51.100.7' }).sourceIps).toEqual(['198.51.100.7']);
    expect(probeOptionsFromEnv({ PROBE_SOURCE_IP: '198.51.100.7, 2001:db8::7' }).sourceIps).toEqual(['198.51.100.7', '2001:db8::7']);
    expect(() => probeOptionsFromEnv({ PROBE_SOURCE_IP: 'probe-1.example' })).toThrow(/PROBE_SOURCE_IP: probe-1.example is not an IP address/);
    expect(() => probeOptionsFromEnv({ PROBE_SOURCE_IP: '198.51.100.7,198.51.100.8' })).toThrow(/PROBE_SOURCE_IP: at most one IPv4 and one IPv6 address/);
  });

  it('reads PROBE_MX_HEAD_START_MS (0 turns the MX race off) and refuses nonsense', () => {
    expect(probeOptionsFromEnv({ PROBE_MX_HEAD_START_MS: '2000' }).mxHeadStartMs).toBe(2000);
    expect(probeOptionsFromEnv({ PROBE_MX_HEAD_START_MS: '0' }).mxHeadStartMs).toBe(0);
    expect(() => probeOptionsFromEnv({ PROBE_MX_HEAD_START_MS: '-1' })).toThrow(/PROBE_MX_HEAD_START_MS/);
    expect(() => probeOptionsFromEnv({ PROBE_MX_HEAD_START_MS: 'soon' })).toThrow(/PROBE_MX_HEAD_START_MS/);
  });

  it('reads the fleet RCPT budget per MX as this node\'s share (budget ÷ fleet size, rounded down), per minute unless the window is set', () => {
    expect(probeOptionsFromEnv({}).mxRcptBudget).toBeUndefined();
    expect(probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '600', PROBE_FLEET_SIZE: '3' }).mxRcptBudget).toEqual({ rcpts: 200, windowMs: 60_000, fleet: { budget: 600, size: 3 } });
    expect(probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '100', PROBE_FLEET_SIZE: '3' }).mxRcptBudget).toEqual({ rcpts: 33, windowMs: 60_000, fleet: { budget: 100, size: 3 } });
    expect(probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '18', PROBE_FLEET_SIZE: '3', PROBE_FLEET_MX_RCPT_WINDOW_MS: '2000' }).mxRcptBudget).toEqual({ rcpts: 6, windowMs: 2000, fleet: { budget: 18, size: 3 } });
  });

  it('refuses a fleet RCPT budget that is negative, not a number, not whole, smaller than the fleet, or incomplete', () => {
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '-600', PROBE_FLEET_SIZE: '3' })).toThrow(/PROBE_FLEET_MX_RCPT_PER_MINUTE: Too small/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: 'plenty', PROBE_FLEET_SIZE: '3' })).toThrow(/PROBE_FLEET_MX_RCPT_PER_MINUTE: .*expected number/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '60.5', PROBE_FLEET_SIZE: '3' })).toThrow(/PROBE_FLEET_MX_RCPT_PER_MINUTE: .*int/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '600', PROBE_FLEET_SIZE: '0' })).toThrow(/PROBE_FLEET_SIZE: Too small/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '600', PROBE_FLEET_SIZE: 'three' })).toThrow(/PROBE_FLEET_SIZE/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '600' })).toThrow(/PROBE_FLEET_MX_RCPT_PER_MINUTE needs PROBE_FLEET_SIZE/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '2', PROBE_FLEET_SIZE: '3' })).toThrow(/leaves less than one RCPT per node; raise the budget to at least 3/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_SIZE: '3' })).toThrow(/PROBE_FLEET_SIZE is set but PROBE_FLEET_MX_RCPT_PER_MINUTE .* is not/);
    expect(() => probeOptionsFromEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '600', PROBE_FLEET_SIZE: '3', PROBE_FLEET_MX_RCPT_WINDOW_MS: '-1' })).toThrow(/PROBE_FLEET_MX_RCPT_WINDOW_MS/);
  });

  it('requires PROBE_TOKEN for the daemon and defaults the port to 8025 and the drain on stop to 8 s', () => {
    expect(() => daemonSettingsFromEnv({})).toThrow(/PROBE_TOKEN/);
    expect(daemonSettingsFromEnv({ PROBE_TOKEN: 's3cret' })).toEqual({ port: 8025, host: '0.0.0.0', token: 's3cret', drainMs: 8000 });
    expect(daemonSettingsFromEnv({ PROBE_TOKEN: 's3cret', PROBE_DRAIN_MS: '0' }).drainMs).toBe(0);
    expect(() => daemonSettingsFromEnv({ PROBE_TOKEN: 's3cret', PROBE_DRAIN_MS: '-1' })).toThrow(/PROBE_DRAIN_MS/);
  });

  it('refuses in production a PROBE_TOKEN (or PROBE_TOKEN_PREVIOUS) shorter than 32 characters: the daemon listens on every address, and a guessable token opens its SMTP probing and metrics to anyone who reaches it', () => {
    expect(() => daemonSettingsFromEnv({ NODE_ENV: 'production', PROBE_TOKEN: 'changeme' })).toThrow(/PROBE_TOKEN: must be at least 32 characters in production/);
    expect(() => daemonSettingsFromEnv({ NODE_ENV: 'production', PROBE_TOKEN: 'k'.repeat(32), PROBE_TOKEN_PREVIOUS: 'old' })).toThrow(/PROBE_TOKEN_PREVIOUS: must be at least 32 characters in production/);
    expect(daemonSettingsFromEnv({ NODE_ENV: 'production', PROBE_TOKEN: 'k'.repeat(32), PROBE_TOKEN_PREVIOUS: 'o'.repeat(40) })).toMatchObject({ token: 'k'.repeat(32), previousToken: 'o'.repeat(40) });
    // Outside production a short one stays allowed (tests, a laptop).
    expect(daemonSettingsFromEnv({ NODE_ENV: 'development', PROBE_TOKEN: 's3cret' }).token).toBe('s3cret');
  });

  it("the budget's journal: named by PROBE_FLEET_MX_RCPT_JOURNAL, 'off' for none, the daemon's default one per port", () => {
    const fleet = { PROBE_FLEET_MX_RCPT_PER_MINUTE: '600', PROBE_FLEET_SIZE: '3' };
    expect(probeOptionsFromEnv({ ...fleet, PROBE_FLEET_MX_RCPT_JOURNAL: '/var/lib/mailvet/budget' }).mxRcptBudget?.journal).toBe('/var/lib/mailvet/budget');
    expect(probeOptionsFromEnv({ ...fleet, PROBE_FLEET_MX_RCPT_JOURNAL: 'off' }).mxRcptBudget?.journal).toBeUndefined();
    expect(daemonRcptJournal({ ...fleet }, 8025)).toBe(path.join(os.tmpdir(), 'mailvet-probe-8025.rcpt-journal'));
    expect(daemonRcptJournal({ ...fleet, PROBE_FLEET_MX_RCPT_JOURNAL: 'off' }, 8025)).toBeUndefined();
    expect(daemonRcptJournal({ ...fleet, PROBE_FLEET_MX_RCPT_JOURNAL: '/srv/j' }, 8025)).toBe('/srv/j');
    expect(daemonRcptJournal({ ...fleet }, 0)).toBeUndefined(); // a new port each start: nothing to find again
  });
});
