// `npm start` after a crash or a power cut: DATA_DIR/pg/postmaster.pid stays behind, and once the
// machine is up again its pid is soon another program's. The file was read as "Postgres is running"
// and npm start connected to a port nobody listened on (ECONNREFUSED) on every try, until the file
// was deleted by hand.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runningPort } from '../../db/embedded';
import { openLocalDb } from '../../scripts/local-db';

const dataDir = path.resolve('.data/test', `npm-start-stale-${process.pid}-${Date.now()}`);
const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
const other = spawn('sleep', ['120'], { stdio: 'ignore' });
afterAll(async () => {
  other.kill('SIGKILL');
  const port = runningPort(path.join(dataDir, 'pg'));
  if (port) {
    process.kill(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
    for (let i = 0; i < 200 && runningPort(path.join(dataDir, 'pg')); i++) await new Promise((r) => setTimeout(r, 50));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('select 1 as n')).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('the embedded Postgres after a crash', () => {
  it('starts when postmaster.pid names a pid that is now another program', { timeout: 120_000 }, async () => {
    const first = await openLocalDb({ dataDir });
    const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
    await first.stop();
    expect(fs.existsSync(pidFile)).toBe(false);
    // What a power cut leaves: the server's lock file, its pid now a `sleep`, its port free.
    lines[0] = String(other.pid);
    lines[3] = String(await freePort());
    fs.writeFileSync(pidFile, lines.join('\n'));

    const again = await openLocalDb({ dataDir });
    try {
      expect(again.owned).toBe(true);
      expect(await selectOne(again.url)).toBe(1);
    } finally {
      await again.stop();
    }
    expect(other.exitCode).toBeNull(); // the other program was left alone
  });
});
