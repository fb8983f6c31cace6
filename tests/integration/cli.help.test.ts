// `--help` on every `mailvet` command (README, "CLI"): the real bin spawned, no server needed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const mailvet = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'scripts/mailvet.mjs'), ...args], { cwd: root, env: { PATH: process.env.PATH ?? '' }, input: '', encoding: 'utf8', timeout: 30_000 });

describe('mailvet --help', () => {
  it('lists every command, mcp included', () => {
    const res = mailvet('--help');
    expect(res.status).toBe(0);
    for (const command of ['verify', 'probe', 'accounts', 'jobs', 'mcp']) expect(res.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('mailvet mcp --help says what the command does and what it needs, and starts nothing', () => {
    for (const flag of ['--help', '-h']) {
      const res = mailvet('mcp', flag);
      expect(res.status).toBe(0);
      expect(res.stdout).toMatch(/Usage: mailvet mcp/);
      expect(res.stdout).toMatch(/MAILVET_URL/);
      expect(res.stdout).toMatch(/MAILVET_API_KEY/);
      expect(res.stderr).toBe('');
    }
  });
});
