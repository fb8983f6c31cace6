// `mailvet verify` on what a self-hoster's shell will hand it by mistake: nothing on stdin, an empty
// --csv or --out (an unset variable), an --out that is no regular file (a pipe, /dev/stdout) or a
// symbolic link, a mistyped flag, and the refusals already promised (no email column, a 0-byte CSV,
// an unreadable path, --out into a missing directory, every probe node unreachable). Each gets one
// clear line on stderr and a non-zero exit, never a stack trace, and nothing it was pointed at is
// replaced. Depth syntax: no DNS, no SMTP.
import { spawnSync } from 'node:child_process';
import { lstat, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../probe/testing/fake-smtp';
import { runMailvet as mailvet } from './mailworld-helpers';

/** A Node stack trace's frame line ("    at fn (file:1:2)"). */
const STACK = /^\s+at .+[:(]/m;

let dir: string;
let list: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mailvet-cli-odd-'));
  list = path.join(dir, 'list.csv');
  await writeFile(list, 'email\nalice@example.com\nbob@example.com\n');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('mailvet verify on odd input', () => {
  it('nothing on stdin (closed at once, or empty) is refused with a message, exit 2: no "Verified 0 of 0" success', { timeout: 60_000 }, async () => {
    for (const stdin of [null, '', '\n  \n']) {
      const { code, stdout, stderr } = await mailvet(['verify', '--depth', 'syntax'], stdin);
      expect(code, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('mailvet verify: no address on stdin');
      expect(stderr).not.toMatch(STACK);
    }
  });

  it('an empty --csv or --out (a script\'s unset variable) is refused, not read from stdin or written to stdout', { timeout: 60_000 }, async () => {
    const csv = await mailvet(['verify', '--depth', 'syntax', '--csv', ''], 'someone@example.com\n');
    expect(csv.code).toBe(2);
    expect(csv.stdout).toBe('');
    expect(csv.stderr).toContain('mailvet verify: --csv needs a file name');
    const out = await mailvet(['verify', '--depth', 'syntax', '--csv', list, '--out', ''], null);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('mailvet verify: --out needs a file name');
  });

  it('an --out that is a pipe is refused before any work, and stays a pipe (not replaced by a file)', { timeout: 60_000 }, async () => {
    const fifo = path.join(dir, 'results.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const { code, stderr } = await mailvet(['verify', '--depth', 'syntax', '--csv', list, '--out', fifo], null);
    expect(code).toBe(2);
    expect(stderr).toContain(`mailvet verify: cannot write ${fifo}: not a regular file`);
    expect(stderr).not.toMatch(/Verified/);
    expect((await lstat(fifo)).isFIFO()).toBe(true);
  });

  it('an --out that is a symbolic link gets the result in the file it points to; the link stays', { timeout: 60_000 }, async () => {
    const real = path.join(dir, 'real-results.csv');
    await writeFile(real, 'old\n');
    const link = path.join(dir, 'results-link.csv');
    await symlink(real, link);
    const { code, stderr } = await mailvet(['verify', '--depth', 'syntax', '--csv', list, '--out', link], null);
    expect(code, stderr).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(real);
    const rows = (await readFile(real, 'utf8')).trim().split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/^alice@example\.com,/);
  });

  it('--probe-token without --probe-urls is refused, not ignored while the list is verified from this machine', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await mailvet(['verify', '--depth', 'syntax', '--csv', list, '--probe-token', 'tok'], null);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('mailvet verify: --probe-token needs --probe-urls');
  });

  it('a mistyped flag or flag value is refused as input (exit 2), not reported as addresses left unverified (exit 1)', { timeout: 60_000 }, async () => {
    const value = await mailvet(['verify', '--depth', 'deep'], 'a@example.com\n');
    expect(value.code).toBe(2);
    expect(value.stderr).toContain("argument 'deep' is invalid");
    const unknown = await mailvet(['verify', '--outfile', 'x.csv'], 'a@example.com\n');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--outfile'");
  });

  it('a CSV with no email column, a 0-byte CSV, an unreadable path, --out into a missing directory: one clear line each, exit 2, no stack trace', { timeout: 60_000 }, async () => {
    const noColumn = path.join(dir, 'people.csv');
    await writeFile(noColumn, 'name,phone\nAlice,123\n');
    const empty = path.join(dir, 'empty.csv');
    await writeFile(empty, '');
    const cases: [string[], RegExp][] = [
      [['--csv', noColumn], /people\.csv: CSV must contain an 'email' column/],
      [['--csv', empty], /empty\.csv: CSV file is empty/],
      [['--csv', path.join(list, 'inside')], /cannot read .*list\.csv\/inside: ENOTDIR \(a part of the path is a file, not a directory\)/],
      [['--csv', path.join(dir, 'missing.csv')], /cannot read .*missing\.csv: ENOENT \(no such file\)/],
      [['--csv', dir], /cannot read .*: EISDIR \(a directory, not a file\)/],
      [['--csv', list, '--out', path.join(dir, 'nowhere', 'out.csv')], /cannot write .*nowhere\/out\.csv: ENOENT \(its directory does not exist\)/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await mailvet(['verify', '--depth', 'syntax', ...args], null);
      expect(code, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(STACK);
    }
  });

  it('--probe-urls whose every node is unreachable: a clear reason, exit 1, no verdict written, no stack trace', { timeout: 60_000 }, async () => {
    const urls = [`http://127.0.0.1:${await closedPort()}`, `http://127.0.0.1:${await closedPort()}`].join(',');
    for (const [args, stdin] of [[['--csv', list], null], [[], 'alice@example.com\n']] as const) {
      const { code, stdout, stderr } = await mailvet(['verify', '--depth', 'syntax', ...args, '--probe-urls', urls, '--probe-token', 'tok'], stdin);
      expect(code).toBe(1);
      expect(stderr).toMatch(/no probe daemon could verify \d address\(es\) \(tried http:\/\/127\.0\.0\.1:\d+, http:\/\/127\.0\.0\.1:\d+\)/);
      expect(stdout).not.toMatch(/invalid|valid,|"verdict"/);
      expect(stderr).not.toMatch(STACK);
    }
  });
});
