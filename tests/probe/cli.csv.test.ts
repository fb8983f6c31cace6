// `mailvet verify --csv in.csv --out out.csv` spawned against the mail world: the upload's CSV
// rules in, the download's columns plus Reason out (input order, formulas neutralised), a summary by
// result and reason on stderr, no progress bar when stderr is not a TTY; the same through a probe
// fleet (--probe-urls); refused input gets a clear message, exit 2 and no output file.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProbeDaemon } from '../../probe/daemon/server';
import type { VerificationResult } from '../../probe/contract';
import { progressLine } from '../../scripts/cli/verify-report';
import { verifyStream } from '../../scripts/cli/verify-stream';
import { buildScenarios, startMailWorld, type MailWorld } from '../mailworld/index';
import { collectOutput, fastProbeOptions } from './mailworld-helpers';

const ROOT = path.resolve(import.meta.dirname, '../..');
const domains = buildScenarios().filter((d) => ['normal', 'catch-all', 'nxdomain', 'mailbox-states', 'silent'].includes(d.domain.split('.')[0] ?? ''));

let world: MailWorld;
let dir: string;
beforeAll(async () => {
  world = await startMailWorld({ domains });
  dir = await mkdtemp(path.join(os.tmpdir(), 'mailvet-cli-csv-'));
});
afterAll(async () => {
  await world?.stop();
  await rm(dir, { recursive: true, force: true });
});

function mailvet(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(child);
}

const worldFlags = (): string[] => ['--dns-server', world.dnsServer, '--smtp-port', String(world.smtpPort), '--allow-private-networks', '--timeout-ms', '1500'];

const INPUT = [
  'Name;E-mail;Company',
  'Alice;alice@Normal.mailworld.test;ACME',
  'Ghost;ghost@normal.mailworld.test;ACME',
  'Dup;ALICE@normal.mailworld.test ;ACME', // the same mailbox in capitals: a duplicate of row 1
  'Again;alice@normal.mailworld.test;ACME', // duplicate of row 1 once normalised
  'Catch;whoever@catch-all.mailworld.test;X',
  'Gone;gone@mailbox-states.mailworld.test;X',
  'Nx;alice@nxdomain.mailworld.test;X',
  'Formula;=1+1@normal.mailworld.test;X',
  'Blank;;X',
  `Long;${'a'.repeat(1100)}@normal.mailworld.test;X`, // too long to be an address: left out, and the summary says so
].join('\r\n');

describe('mailvet verify --csv', () => {
  it('reads a CSV by the upload rules and writes the result CSV with Reason, plus a summary by result and reason', { timeout: 60_000 }, async () => {
    const input = path.join(dir, 'in.csv');
    const out = path.join(dir, 'out.csv');
    await writeFile(input, INPUT);
    const { code, stdout, stderr } = await mailvet(['verify', '--csv', input, '--out', out, ...worldFlags()]);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('');
    const rows = parse(await readFile(out, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual(['Email', 'Result', 'Deliverability Score', 'Syntax Valid', 'DNS Valid', 'MX Valid', 'SMTP Valid', 'Role Detected', 'Disposable Provider', 'Checked At', 'Reason']);
    expect(rows.map((r) => `${r.Email} ${r.Result} ${r.Reason}`)).toEqual([
      'alice@normal.mailworld.test valid accepted',
      'ghost@normal.mailworld.test invalid mailbox_not_found',
      'whoever@catch-all.mailworld.test risky catch_all',
      'gone@mailbox-states.mailworld.test invalid mailbox_disabled',
      'alice@nxdomain.mailworld.test invalid no_domain',
      "'=1+1@normal.mailworld.test invalid mailbox_not_found",
    ]);
    expect(rows[0]?.['SMTP Valid']).toBe('Yes');
    expect(Number.isNaN(Date.parse(rows[0]?.['Checked At'] ?? ''))).toBe(false);
    // Summary on stderr; no progress bar (stderr is a pipe, not a TTY).
    // What the upload rules left out is said, not silently missing from the result file.
    expect(stderr).toMatch(/^Read 9 addresses from .*in\.csv; left out: 2 duplicates, 1 value longer than 1,024 characters$/m);
    expect(stderr).toMatch(/^Verified 6 of 6 addresses in [\d.]+ s/m);
    expect(stderr).toMatch(/^ {2}valid +1 +16\.7%$/m);
    expect(stderr).toMatch(/^ {2}invalid +4 +66\.7%$/m);
    expect(stderr).toMatch(/^ {2}risky +1 +16\.7%$/m);
    expect(stderr).toMatch(/^ {2}mailbox_not_found +2 /m);
    expect(stderr).toMatch(/^ {2}catch_all +1 /m);
    expect(stderr).not.toContain('ETA');
    expect(stderr).not.toContain('\r');
  });

  it('verifies on a probe fleet with --probe-urls (token from PROBE_TOKEN) and writes the CSV to stdout without --out', { timeout: 60_000 }, async () => {
    const daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: 'cli-fleet', probe: fastProbeOptions(world) });
    try {
      const input = path.join(dir, 'list.csv');
      await writeFile(input, 'alice@normal.mailworld.test\nghost@normal.mailworld.test\n');
      const { code, stdout, stderr } = await mailvet(['verify', '--csv', input, '--probe-urls', `${daemon.url},http://127.0.0.1:1`], { PROBE_TOKEN: 'cli-fleet' });
      expect(code, stderr).toBe(0);
      const rows = parse(stdout, { columns: true }) as Record<string, string>[];
      expect(rows.map((r) => `${r.Email} ${r.Result} ${r.Reason}`)).toEqual(['alice@normal.mailworld.test valid accepted', 'ghost@normal.mailworld.test invalid mailbox_not_found']);
      expect(stderr).toMatch(/^Verified 2 of 2 addresses/m);
      // A wrong token is refused by the fleet: exit 1, said on stderr.
      const bad = await mailvet(['verify', '--csv', input, '--probe-urls', daemon.url, '--probe-token', 'wrong']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/refused the request \(401\)/);
    } finally {
      await daemon.close();
    }
  });

  it('writes each row as soon as every address before it has its result, not once the whole list is done (a list of millions is never held)', { timeout: 90_000 }, async () => {
    const input = path.join(dir, 'streamed.csv');
    const early = ['alice@normal.mailworld.test', 'ghost@normal.mailworld.test', 'alice@nxdomain.mailworld.test', 'not-an-address'];
    const held = 'alice@silent.mailworld.test'; // accepts the connection and never greets: no result for --timeout-ms
    await writeFile(input, ['email', ...early, held].join('\n'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), 'verify', '--csv', input, '--dns-server', world.dnsServer, '--smtp-port', String(world.smtpPort), '--allow-private-networks', '--timeout-ms', '45000'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    let stdout = '';
    // What stdout held, and whether the run was still going, when the early rows were first all there.
    const firstSeen = new Promise<{ stdout: string; running: boolean } | null>((resolve) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        if (early.every((e) => stdout.includes(`\n${e},`))) resolve({ stdout, running: child.exitCode === null });
      });
      void closed.then(() => resolve(null));
    });
    try {
      const seen = await firstSeen;
      expect(seen, 'the early rows never came before the run ended').not.toBeNull();
      expect(seen!.running).toBe(true);
      expect(seen!.stdout).not.toContain(held);
      const rows = parse(seen!.stdout, { columns: true, relax_column_count: true }) as Record<string, string>[];
      expect(rows.map((r) => r.Email)).toEqual(early); // input order
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
  });

  it('refuses a missing file, a CSV without an email column and --out without --csv, with exit 2 and no output file', { timeout: 60_000 }, async () => {
    const out = path.join(dir, 'never.csv');
    const missing = await mailvet(['verify', '--csv', path.join(dir, 'nope.csv'), '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.csv: ENOENT/);
    const noColumn = path.join(dir, 'nocol.csv');
    await writeFile(noColumn, 'name,company\nAlice,ACME\n');
    const refused = await mailvet(['verify', '--csv', noColumn, '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/nocol\.csv: .*email/i);
    const outOnly = await mailvet(['verify', '--out', out]);
    expect(outOnly.code).toBe(2);
    expect(outOnly.stderr).toContain('--out needs --csv');
    // On a fleet the nodes' own settings apply: a flag of this process's engine would be silently ignored.
    const list = path.join(dir, 'fleet-list.csv');
    await writeFile(list, 'alice@normal.mailworld.test\n');
    const ignored = await mailvet(['verify', '--csv', list, '--out', out, '--probe-urls', 'http://127.0.0.1:1', '--helo', 'mx.mine.example', '--timeout-ms', '500'], { PROBE_TOKEN: 't' });
    expect(ignored.code).toBe(2);
    expect(ignored.stderr).toContain('mailvet verify: --timeout-ms, --helo set this process\'s engine; with --probe-urls the probe nodes\' own settings (PROBE_*) apply');
    expect(existsSync(out)).toBe(false);
  });
});

describe('mailvet verify (addresses on stdin)', () => {
  it('writes only JSON lines on stdout and the same summary by result and reason as the CSV mode on stderr', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), 'verify', ...worldFlags()], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end('alice@normal.mailworld.test\nghost@normal.mailworld.test\n\nwhoever@catch-all.mailworld.test\nalice@nxdomain.mailworld.test\n');
    const { code, stdout, stderr } = await collectOutput(child);
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    const byEmail = Object.fromEntries(lines.map((l) => JSON.parse(l) as { email: string; result: string; reason: string }).map((r) => [r.email, `${r.result} ${r.reason}`]));
    expect(byEmail).toEqual({
      'alice@normal.mailworld.test': 'valid accepted',
      'ghost@normal.mailworld.test': 'invalid mailbox_not_found',
      'whoever@catch-all.mailworld.test': 'risky catch_all',
      'alice@nxdomain.mailworld.test': 'invalid no_domain',
    });
    expect(stderr).toMatch(/^Verified 4 of 4 addresses in [\d.]+ s/m);
    expect(stderr).toMatch(/^By result:$/m);
    expect(stderr).toMatch(/^ {2}valid +1 +25\.0%$/m);
    expect(stderr).toMatch(/^ {2}invalid +2 +50\.0%$/m);
    expect(stderr).toMatch(/^ {2}risky +1 +25\.0%$/m);
    expect(stderr).toMatch(/^By reason:$/m);
    expect(stderr).toMatch(/^ {2}no_domain +1 +25\.0%$/m);
    expect(stderr).not.toContain('ETA');
  });
});

describe('the progress line', () => {
  it('shows the bar, the count, the rate and the ETA', () => {
    expect(progressLine(500, 2000, 2000, 8)).toBe('[##------]  25% 500/2,000 · 250/s · ETA 0:06');
    expect(progressLine(0, 10, 0, 4)).toBe('[----]   0% 0/10 · 0/s · ETA --:--');
    expect(progressLine(10, 10, 5000, 4)).toBe('[####] 100% 10/10 · 2/s · ETA 0:00');
  });
});

describe('verifyStream (how the CSV mode reads, verifies and writes a list of any size)', () => {
  it('while an early address waits, reads no further than its window of addresses; then writes every line in input order', async () => {
    const total = 5_000;
    const batchSize = 100;
    const window = 400;
    let read = 0;
    async function* list(): AsyncGenerator<string> {
      for (let i = 0; i < total; i++) {
        read++;
        yield `u${i}@x.test`;
      }
    }
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let batchesDone = 0;
    let fourDone!: () => void;
    const fourBatchesDone = new Promise<void>((resolve) => (fourDone = resolve));
    async function* verify(emails: string[]): AsyncGenerator<VerificationResult> {
      for (const email of emails) {
        if (email === 'u0@x.test') await gate; // the first address of the list is slow (a greylisting server)
        yield { email } as VerificationResult;
      }
      if (++batchesDone === 3) fourDone(); // every batch but the held one
    }
    const written: string[] = [];
    let maxHeld = 0;
    const run = verifyStream(list(), verify, (r) => r.email, async (l) => void written.push(l), {
      ordered: true,
      batchSize,
      window,
      onResult: () => (maxHeld = Math.max(maxHeld, read - written.length)),
    });
    await fourBatchesDone;
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([]); // nothing may come before u0's line
    expect(read).toBeLessThanOrEqual(window + 1); // the list is read no further than the window
    release();
    expect(await run).toEqual({ read: total, failure: null });
    expect(written).toEqual(Array.from({ length: total }, (_, i) => `u${i}@x.test`));
    expect(maxHeld).toBeLessThanOrEqual(window + batchSize);
  });
});
