import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDns, type FakeDns } from './testing/fake-dns';
import { startScriptedSmtp, type RunningServer } from './testing/fake-smtp';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
let dns: FakeDns;
let smtp: RunningServer;

beforeAll(async () => {
  dns = await startFakeDns({ 'shop.test': { mx: [[10, 'mx.shop.test']] }, 'mx.shop.test': { a: ['127.0.0.1'] } });
  smtp = await startScriptedSmtp({
    reply: (l) => (l.startsWith('EHLO') ? '250-fake\r\n250 PIPELINING' : l.startsWith('RCPT') ? (l.includes('<alice@') ? '250 ok' : '550 5.1.1 unknown') : l.startsWith('QUIT') ? '221 bye' : '250 ok'),
  });
});
afterAll(async () => {
  await smtp.close();
  await dns.close();
});

function run(args: string[], stdin: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, ['probe/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('mailvet verify (CLI)', () => {
  it('reads addresses from stdin and writes one JSON line per address', async () => {
    const input = 'alice@shop.test\r\nbob@shop.test\n\n  Alice@shop.test\nnot-an-address\n';
    const { code, stdout, stderr } = await run(['verify', '--dns-server', dns.server, '--smtp-port', String(smtp.port), '--allow-private-networks', '--timeout-ms', '3000', '--helo', 'probe.test', '--mail-from', 'v@probe.test', '--concurrency', '5'], input);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    const byEmail = Object.fromEntries(lines.map((l) => [l.email, l]));
    expect(Object.keys(byEmail).sort()).toEqual(['  Alice@shop.test', 'alice@shop.test', 'bob@shop.test', 'not-an-address']);
    expect(byEmail['alice@shop.test']).toMatchObject({ verdict: 'deliverable', result: 'valid', reason: 'accepted', catch_all: false, disposable: false, role: false, free_provider: false, mx_hosts: ['mx.shop.test'], suggestion: null });
    expect(Object.keys(byEmail['alice@shop.test'] as object)).toEqual(['email', 'verdict', 'result', 'reason', 'catch_all', 'disposable', 'role', 'free_provider', 'score', 'mx_hosts', 'suggestion', 'ms']);
    expect(byEmail['bob@shop.test']).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
    expect(byEmail['not-an-address']).toMatchObject({ verdict: 'undeliverable', reason: 'syntax' });
  });

  it('skips only lines blank of SP/HTAB: a line of NBSP or a zero-width space is judged, invalid', async () => {
    const { code, stdout } = await run(['verify', '--dns-server', dns.server, '--smtp-port', String(smtp.port), '--allow-private-networks', '--timeout-ms', '3000', '--helo', 'probe.test', '--mail-from', 'v@probe.test'], ' \t\n\u00a0\n\u200b\nalice@shop.test\u00a0\n');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.email).sort()).toEqual(['alice@shop.test\u00a0', '\u00a0', '\u200b']);
    for (const l of lines) expect(l).toMatchObject({ verdict: 'undeliverable', reason: 'syntax' });
  });

  it('refuses private mail servers without --allow-private-networks', async () => {
    const { code, stdout } = await run(['verify', '--dns-server', dns.server, '--smtp-port', String(smtp.port)], 'alice@shop.test\n');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'unknown', reason: 'blocked_address' });
  });

  it('supports --depth', async () => {
    const { stdout } = await run(['verify', '--dns-server', dns.server, '--depth', 'mx', '--allow-private-networks'], 'alice@shop.test\n');
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'unknown', result: 'risky', reason: 'smtp_not_checked' });
  });

  it('starts the daemon with `probe` from PROBE_PORT and PROBE_TOKEN', async () => {
    const child = spawn(tsx, ['probe/cli.ts', 'probe'], { cwd: root, env: { ...process.env, PROBE_PORT: '0', PROBE_HOST: '127.0.0.1', PROBE_TOKEN: 'cli-token' } });
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /listening on (\S+)/.exec(err);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('close', () => reject(new Error(err)));
    });
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ ok: true });
    const closed = new Promise((r) => child.on('close', r));
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
  });

  it('refuses --allow-private-networks in production, naming it, and verifies nothing', async () => {
    const { code, stdout, stderr } = await run(['verify', '--allow-private-networks', '--dns-server', dns.server, '--smtp-port', String(smtp.port)], 'alice@shop.test\n', { NODE_ENV: 'production' });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--allow-private-networks is refused in production/);
    expect(stdout).toBe('');
  });

  it('refuses to start the daemon without PROBE_TOKEN', async () => {
    const { code, stderr } = await run(['probe'], '', { PROBE_TOKEN: '', PROBE_PORT: '0' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/PROBE_TOKEN/);
  });

  it('refuses to start the daemon with a fleet RCPT budget that is not a positive whole number, or without a fleet size', async () => {
    const env = { PROBE_TOKEN: 'cli-token', PROBE_PORT: '0', PROBE_HOST: '127.0.0.1' };
    const bad: [Record<string, string>, RegExp][] = [
      [{ PROBE_FLEET_MX_RCPT_PER_MINUTE: 'lots', PROBE_FLEET_SIZE: '3' }, /PROBE_FLEET_MX_RCPT_PER_MINUTE: .*expected number/],
      [{ PROBE_FLEET_MX_RCPT_PER_MINUTE: '-300', PROBE_FLEET_SIZE: '3' }, /PROBE_FLEET_MX_RCPT_PER_MINUTE: .*>0/],
      [{ PROBE_FLEET_MX_RCPT_PER_MINUTE: '300' }, /PROBE_FLEET_MX_RCPT_PER_MINUTE needs PROBE_FLEET_SIZE/],
    ];
    await Promise.all(
      bad.map(async ([vars, message]) => {
        const { code, stderr } = await run(['probe'], '', { ...env, ...vars });
        expect(code).toBe(1);
        expect(stderr).toMatch(message);
        expect(stderr).not.toMatch(/listening on/);
      }),
    );
  });
});
