// `mailvet verify` and `mailvet probe` with a mistyped value (README, "CLI" and "Configuration"): exit 2
// (the daemon: 1) naming the flag or variable. `--smtp-port 70000` was taken (exit 0, every SMTP check
// unable to connect); `--rdap-url notaurl` said only "Invalid URL", `--dns-server` and
// PROBE_DNS_SERVERS a host name only "Invalid IP address: …", neither saying which setting was wrong.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProbeEnv } from '../../probe/env';

const ROOT = path.resolve(import.meta.dirname, '../..');
const mailvet = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), ...args], {
    cwd: ROOT,
    input: 'someone@example.invalid\n',
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
  });

describe('mailvet verify, flag values', () => {
  it.each([
    [['--smtp-port', '70000'], "option '--smtp-port <port>' argument '70000' is invalid. must be a port number from 1 to 65535"],
    [['--rdap-url', 'notaurl'], "option '--rdap-url <url>' argument 'notaurl' is invalid. must be an http:// or https:// URL"],
    [['--dns-server', 'dns.example.com'], `option '--dns-server <host:port>' argument 'dns.example.com' is invalid. "dns.example.com" is not a DNS server address`],
  ])('%j exits 2 naming the flag', (flags, message) => {
    const r = mailvet(['verify', '--depth', 'syntax', ...flags]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('takes the values the README shows', () => {
    const r = mailvet(['verify', '--depth', 'syntax', '--smtp-port', '2525', '--rdap-url', 'https://rdap.org', '--dns-server', '127.0.0.1:53,[::1]:5353']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.trim()).email).toBe('someone@example.invalid');
  });
});

describe('PROBE_DNS_SERVERS', () => {
  it('a host name stops the daemon with the variable named', () => {
    const r = mailvet(['probe'], { PROBE_TOKEN: 'flag-values-token', PROBE_PORT: '0', PROBE_DNS_SERVERS: 'dns.example.com' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PROBE_DNS_SERVERS: "dns.example.com" is not a DNS server address');
  });

  it('takes addresses, ports and bracketed IPv6', () => {
    expect(parseProbeEnv({ PROBE_DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,::1' }).PROBE_DNS_SERVERS).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '::1']);
  });
});
