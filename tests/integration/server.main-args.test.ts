// `tsx server/main.ts web|worker|all` (README, "Running each process"; the Dockerfile's ROLE): --help
// said "unknown role --help" with a stack trace and exit 1, a mistyped role and a missing
// DATABASE_URL printed a stack trace, and an extra argument was ignored.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServerArgs, SERVER_USAGE } from '../../server/main';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });

describe('tsx server/main.ts', () => {
  it('--help prints the usage with the roles and what is required, and exits 0 starting nothing', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(SERVER_USAGE);
    expect(r.stdout).toContain('[web|worker|all]');
    expect(r.stdout).toContain('DATABASE_URL');
  });

  it('a mistyped role exits 2 naming it and the roles, without a stack trace', () => {
    const r = run('wbe');
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('unknown role wbe: use web, worker or all (--help)');
  });

  it('a missing DATABASE_URL exits 1 with the message alone', () => {
    const r = run('web');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('DATABASE_URL is required (use `npm start` for the embedded database)');
  });

  it('takes one role; an extra argument is refused, not ignored', () => {
    expect(parseServerArgs([])).toEqual({ role: 'all' });
    expect(parseServerArgs(['worker'])).toEqual({ role: 'worker' });
    expect(parseServerArgs(['web', 'worker'])).toEqual({ error: 'unexpected argument worker: give one role, web, worker or all' });
  });
});
