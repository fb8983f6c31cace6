// `mailvet verify --csv in.csv --out out.csv` reads a file by the upload's rules and keeps every
// address exactly once, whatever mix of line ends the file has (syntax depth: no network needed).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectOutput } from './mailworld-helpers';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mailvet-cli-line-ends-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function mailvet(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(child);
}

describe('mailvet verify --csv with mixed line ends', () => {
  it('writes one row per address of a CRLF file with rows appended with LF line ends', { timeout: 60_000 }, async () => {
    const input = path.join(dir, 'appended.csv');
    const out = path.join(dir, 'out.csv');
    await writeFile(input, 'Name,Email\r\nAnn,ann@example.com\r\nBob,bob@example.com\nCid,cid@example.com\nDee,dee@example.com\r\n');
    const { code, stderr } = await mailvet(['verify', '--csv', input, '--out', out, '--depth', 'syntax']);
    expect(code, stderr).toBe(0);
    const rows = parse(await readFile(out, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.Email)).toEqual(['ann@example.com', 'bob@example.com', 'cid@example.com', 'dee@example.com']);
  });
});
