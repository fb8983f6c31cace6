// `mailvet verify` on input a self-hoster's list and shell can give it: a line too long for a daemon
// (answered by the syntax check, the rest still verified on the fleet), a UTF-8 BOM on stdin, an
// unknown --mode, a TTY (the progress bar in stdin mode too), an --out that cannot be written (said
// before any address is verified), Ctrl+C mid-run (no temporary file left behind). No public network: depth syntax/mx, fake DNS on 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProbeDaemon } from '../../probe/daemon/server';
import { startFakeDns, type FakeDns } from '../../probe/testing/fake-dns';
import { closedPort } from '../../probe/testing/fake-smtp';
import { listenLocal } from './fake-nodes';
import { runMailvet as mailvet } from './mailworld-helpers';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAILVET = path.join(ROOT, 'scripts/mailvet.ts');

const emailsOf = (stdout: string): string[] => stdout.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { email: string }).email);

let dns: FakeDns;
let dir: string;
beforeAll(async () => {
  dns = await startFakeDns({ 'slow.test': { behaviour: 'timeout' } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'mailvet-cli-edge-'));
});
afterAll(async () => {
  await dns?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('mailvet verify --probe-urls (stdin)', () => {
  let daemon: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: 'tok', probe: { dnsServers: [dns.server] } });
  });
  afterAll(async () => daemon?.close());

  it('one line over 1,024 characters does not cost every other address its result', { timeout: 60_000 }, async () => {
    const long = `${'x'.repeat(1100)}@example.com`;
    const input = ['a@example.com', long, 'b@example.com'].join('\n');
    // Local mode judges the long line (syntax) and answers all three:
    const local = await mailvet(['verify', '--depth', 'syntax', '--dns-server', dns.server], input);
    // The same input on a fleet:
    const fleet = await mailvet(['verify', '--depth', 'syntax', '--probe-urls', daemon.url, '--probe-token', 'tok'], input);
    expect(emailsOf(local.stdout).sort()).toEqual(['a@example.com', 'b@example.com', long].sort());
    expect(emailsOf(fleet.stdout)).toContain('a@example.com');
    expect(emailsOf(fleet.stdout)).toContain('b@example.com');
  });

  it('an empty --probe-urls (a script\'s unset variable) is refused, not run from this machine instead of the fleet', { timeout: 30_000 }, async () => {
    for (const urls of ['', ' , ']) {
      const { code, stdout, stderr } = await mailvet(['verify', '--depth', 'syntax', '--probe-urls', urls, '--probe-token', 'tok'], 'a@example.com\n');
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('--probe-urls names no probe daemon');
    }
  });
});

describe('mailvet verify (stdin)', () => {
  it('a UTF-8 BOM at the start of stdin is not part of the first address (the CSV reader strips it)', { timeout: 30_000 }, async () => {
    const { code, stdout } = await mailvet(['verify', '--depth', 'syntax', '--dns-server', dns.server], '\uFEFFalice@example.com\r\nbob@example.com\r\n');
    const lines = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { email: string; reason: string });
    const alice = lines.find((l) => l.email.endsWith('alice@example.com'));
    expect(alice?.email).toBe('alice@example.com');
    expect(alice?.reason).toBe('smtp_not_checked'); // as bob@example.com
    expect(code).toBe(0);
  });

  it('--mode with an unknown value is refused (not silently run as realtime)', { timeout: 30_000 }, async () => {
    const { code, stderr } = await mailvet(['verify', '--depth', 'syntax', '--mode', 'bluk', '--dns-server', dns.server], 'a@example.com\n');
    expect(code).not.toBe(0);
    expect(stderr).toContain("argument 'bluk' is invalid. Allowed choices are realtime, bulk.");
  });

  // `script` (util-linux) gives the command a TTY; without it there is no TTY to test on.
  it.skipIf(spawnSync('script', ['--version']).status !== 0)('draws a progress bar on a TTY, as the CSV mode does', { timeout: 30_000 }, () => {
    const cmd = `printf 'a@example.com\\nb@example.com\\n' | ${process.execPath} --import tsx ${MAILVET} verify --depth syntax --dns-server ${dns.server} 2>&1 >/dev/null`;
    const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, encoding: 'utf8' });
    expect(tty.stdout).toMatch(/\[#+-*\] +\d+% /);
  });
});

/** `mailvet verify …` spawned with stdout and stderr read as they come, to be interrupted mid-run. */
function running(args: string[], env: Record<string, string> = {}): { child: ReturnType<typeof spawn>; out: () => string; err: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAILVET, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, out: () => stdout, err: () => stderr, exited };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 800 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(done()).toBe(true);
}

describe('mailvet verify interrupted (Ctrl+C)', () => {
  it('--csv to stdout: stops cleanly, every row written whole, the summary of what was done on stderr, exit 130', { timeout: 60_000 }, async () => {
    const work = await mkdtemp(path.join(dir, 'sigint-stdout-'));
    const input = path.join(work, 'in.csv');
    // Two names answered at once (no such domain), then one whose DNS never answers: the run sits there.
    await writeFile(input, 'email\na@nx-one.test\nb@nx-two.test\nsomeone@slow.test\nc@nx-three.test\n');
    const run = running(['verify', '--depth', 'mx', '--dns-server', dns.server, '--csv', input], { PROBE_DNS_TIMEOUT_MS: '30000' });
    await until(() => run.out().split('\r\n').length >= 4); // the header and the two rows before the slow one
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    const stdout = run.out();
    expect(stdout.endsWith('\r\n')).toBe(true); // no row cut in half
    const rows = stdout.trim().split('\r\n');
    expect(rows[0]).toMatch(/^Email,Result,/);
    // In input order; the slow address has no row, the one after it (answered already) has its row.
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['a@nx-one.test', 'b@nx-two.test', 'c@nx-three.test']);
    expect(run.err()).toContain('Verified 3 of 4 addresses');
    expect(run.err()).toContain('By reason:');
    expect(run.err()).toContain('mailvet verify: interrupted (SIGINT)');
  });

  it('--csv --out: --out is not written, the rows answered go to <out>.partial, exit 130', { timeout: 60_000 }, async () => {
    const work = await mkdtemp(path.join(dir, 'sigint-partial-'));
    const input = path.join(work, 'in.csv');
    await writeFile(input, 'email\na@nx-one.test\nb@nx-two.test\nsomeone@slow.test\nc@nx-three.test\n');
    const out = path.join(work, 'out.csv');
    const run = running(['verify', '--depth', 'mx', '--dns-server', dns.server, '--csv', input, '--out', out], { PROBE_DNS_TIMEOUT_MS: '30000' });
    let rowsInTmp = 0;
    const tmpRows = async (): Promise<number> => {
      const tmp = (await readdir(work)).find((f) => f.endsWith('.tmp'));
      return tmp ? (await readFile(path.join(work, tmp), 'utf8')).split('\r\n').length - 1 : 0;
    };
    for (let i = 0; i < 800 && rowsInTmp < 3; i++) {
      await new Promise((r) => setTimeout(r, 25));
      rowsInTmp = await tmpRows();
    }
    expect(rowsInTmp).toBe(3);
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect((await readdir(work)).sort()).toEqual(['in.csv', 'out.csv.partial']);
    const rows = (await readFile(`${out}.partial`, 'utf8')).trim().split('\r\n');
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['a@nx-one.test', 'b@nx-two.test', 'c@nx-three.test']);
    expect(run.err()).toContain('Verified 3 of 4 addresses');
    expect(run.err()).toContain(`${out} not written (interrupted with 1 of 4 addresses not verified); the 3 rows verified are in ${out}.partial`);
  });

  it('--probe-urls, addresses on stdin: the JSON lines answered so far, then the summary, exit 130', { timeout: 60_000 }, async () => {
    const daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: 'tok', probe: { dnsServers: [dns.server], dnsTimeoutMs: 30_000 } });
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', MAILVET, 'verify', '--depth', 'mx', '--probe-urls', daemon.url, '--probe-token', 'tok'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
      // stdin stays open (an operator still pasting): the run must not wait for its end.
      child.stdin.write('a@nx-one.test\nsomeone@slow.test\nb@nx-two.test\n');
      await until(() => stdout.split('\n').filter(Boolean).length >= 2);
      child.kill('SIGINT');
      expect(await exited).toEqual({ code: 130, signal: null });
      child.stdin.destroy();
      expect(stdout.endsWith('\n')).toBe(true);
      expect(emailsOf(stdout).sort()).toEqual(['a@nx-one.test', 'b@nx-two.test']);
      expect(stderr).toContain('Verified 2 of 3 addresses');
      expect(stderr).toContain('mailvet verify: interrupted (SIGINT)');
    } finally {
      await daemon.close();
    }
  });
});

describe('mailvet verify --csv --out', () => {
  it('Ctrl+C (SIGINT) mid-run leaves no temporary file next to --out, and no --out, and exits 130', { timeout: 60_000 }, async () => {
    const work = await mkdtemp(path.join(dir, 'sigint-'));
    const input = path.join(work, 'in.csv');
    await writeFile(input, 'email\nsomeone@slow.test\n');
    const out = path.join(work, 'out.csv');
    const child = spawn(process.execPath, ['--import', 'tsx', MAILVET, 'verify', '--depth', 'mx', '--dns-server', dns.server, '--timeout-ms', '20000', '--csv', input, '--out', out], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    // The run has started once its temporary file is there (made before any address is verified);
    // the one slow name keeps it running for seconds after that.
    for (let i = 0; i < 400 && !(await readdir(work)).some((f) => f.endsWith('.tmp')); i++) await new Promise((r) => setTimeout(r, 25));
    expect((await readdir(work)).some((f) => f.endsWith('.tmp'))).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 130, signal: null });
    expect(await readdir(work)).toEqual(['in.csv']);
  });

  it('an --out that cannot be written is refused before any address is verified', { timeout: 60_000 }, async () => {
    const input = path.join(dir, 'in.csv');
    await writeFile(input, 'email\nsomeone@slow.test\n');
    const before = dns.queries.length;
    const { code, stderr } = await mailvet(['verify', '--depth', 'mx', '--dns-server', dns.server, '--csv', input, '--out', path.join(dir, 'no-such-dir', 'out.csv')], null);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^mailvet verify: cannot write .*out\.csv: ENOENT/);
    expect(dns.queries.length - before).toBe(0);
  });

  it('an --out that names a directory is refused before any address is verified (not after the whole run)', { timeout: 60_000 }, async () => {
    const input = path.join(dir, 'in-dir.csv');
    await writeFile(input, 'email\nsomeone@slow.test\n');
    const before = dns.queries.length;
    const { code, stderr } = await mailvet(['verify', '--depth', 'mx', '--dns-server', dns.server, '--csv', input, '--out', dir], null);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^mailvet verify: cannot write .*: EISDIR/);
    expect(stderr).not.toMatch(/Verified/);
    expect(dns.queries.length - before).toBe(0);
  });

  it('a run that cannot verify its list (every probe node down) leaves an existing --out as it was, and says so', { timeout: 60_000 }, async () => {
    const work = await mkdtemp(path.join(dir, 'down-'));
    const input = path.join(work, 'in.csv');
    await writeFile(input, 'email\na@example.com\nb@example.com\n');
    const out = path.join(work, 'out.csv');
    await writeFile(out, 'yesterday,s,results\n');
    const urls = [`http://127.0.0.1:${await closedPort()}`, `http://127.0.0.1:${await closedPort()}`].join(',');
    const { code, stderr } = await mailvet(['verify', '--depth', 'syntax', '--csv', input, '--out', out, '--probe-urls', urls, '--probe-token', 'tok'], null);
    expect(code).toBe(1);
    expect(stderr).toContain('no probe daemon could verify 2 address(es)');
    expect(stderr).toContain(`${out} not written`);
    expect(await readFile(out, 'utf8')).toBe('yesterday,s,results\n');
    expect((await readdir(work)).sort()).toEqual(['in.csv', 'out.csv']); // nothing verified: no partial file, no temporary file
  });

  it('the summary of a run that stopped early counts every address of the list, not only those it had read', { timeout: 60_000 }, async () => {
    const work = await mkdtemp(path.join(dir, 'long-'));
    const input = path.join(work, 'in.csv');
    // More than the run reads ahead (40,000): with every node down it stops reading the list there.
    await writeFile(input, `email\n${Array.from({ length: 60_000 }, (_, i) => `user${i}@example.com`).join('\n')}\n`);
    const urls = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await mailvet(['verify', '--depth', 'syntax', '--csv', input, '--out', path.join(work, 'out.csv'), '--probe-urls', urls, '--probe-token', 'tok'], null);
    expect(code).toBe(1);
    expect(stderr).toContain('Verified 0 of 60,000 addresses');
    expect(stderr).toContain('(60,000 of 60,000 addresses could not be verified)');
  });

  it('a run that leaves some addresses unverified keeps --out as it was and puts the rows it verified next to it, named partial', { timeout: 60_000 }, async () => {
    const daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: 'tok', probe: { dnsServers: [dns.server] } });
    // A node that passes on the daemon's results except the poisoned address's, then cuts the stream: every node fails on that one.
    const relay = await listenLocal((req, res) => {
      if (req.url === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => {
        void fetch(`${daemon.url}/v1/verify`, { method: 'POST', headers: { authorization: 'Bearer tok', 'content-type': 'application/json' }, body: Buffer.concat(body) })
          .then(async (up) => {
            res.writeHead(200, { 'content-type': 'application/x-ndjson' });
            const lines = (await up.text()).split('\n').filter((l) => l && !l.includes('poison@'));
            res.write(lines.map((l) => `${l}\n`).join(''), () => res.socket?.destroy());
          })
          .catch(() => res.destroy());
      });
    });
    try {
      const work = await mkdtemp(path.join(dir, 'partial-'));
      const input = path.join(work, 'in.csv');
      await writeFile(input, 'email\na@example.com\npoison@example.com\nb@example.com\n');
      const out = path.join(work, 'out.csv');
      await writeFile(out, 'yesterday,s,results\n');
      const { code, stderr } = await mailvet(['verify', '--depth', 'syntax', '--csv', input, '--out', out, '--probe-urls', relay.url, '--probe-token', 'tok'], null);
      expect(code).toBe(1);
      expect(stderr).toContain('Verified 2 of 3 addresses');
      expect(stderr).toContain(`${out} not written`);
      expect(stderr).toContain(`${out}.partial`);
      expect(await readFile(out, 'utf8')).toBe('yesterday,s,results\n');
      const rows = (await readFile(`${out}.partial`, 'utf8')).trim().split('\r\n');
      expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['a@example.com', 'b@example.com']);
      expect((await readdir(work)).sort()).toEqual(['in.csv', 'out.csv', 'out.csv.partial']);
    } finally {
      await relay.close();
      await daemon.close();
    }
  });
});
