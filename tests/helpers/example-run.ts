// Running the Documentation page's examples as a reader would: an interpreter on a file, with only
// PATH, HOME and the variables the example reads, bounded in time (an example that never stops is
// killed and fails).
import { execFile, execFileSync } from 'node:child_process';
import os from 'node:os';

export interface ExampleRun {
  /** The exit code (1 when it was killed or could not start). */
  code: number;
  stdout: string;
  stderr: string;
}

export function runExample(cmd: string, args: string[], o: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<ExampleRun> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: o.cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...o.env }, timeout: o.timeoutMs ?? 60_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: unknown }).code as number | null) ?? 1 : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

/** python3 with the requests package is installed here (the Python examples need both). */
export function pythonWithRequests(): boolean {
  try {
    execFileSync('python3', ['-c', 'import requests'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
