// `mailvet mcp` takes no flag or argument (README, "CLI"): a mistyped one (`--url https://…`, the
// address where MAILVET_URL belongs) was ignored and the server started on whatever MAILVET_URL said.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const mcp = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/mailvet.ts'), 'mcp', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', MAILVET_URL: 'http://127.0.0.1:9', MAILVET_API_KEY: 'mv_test_x' },
    input: '',
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('mailvet mcp with an argument', () => {
  it.each([
    [['--url', 'https://app.mailvet.dev'], "mailvet mcp: unexpected option '--url' (it takes none: MAILVET_URL and MAILVET_API_KEY configure it; --help)"],
    [['serve'], "mailvet mcp: unexpected argument 'serve' (it takes none: MAILVET_URL and MAILVET_API_KEY configure it; --help)"],
  ])('%j exits 2 naming it, serving nothing', (args, message) => {
    const r = mcp(...args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(message);
  });
});
