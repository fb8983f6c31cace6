// `npm start` (scripts/start.ts startLaptop): a start that fails half-way (the port is taken, the
// most common first-run error) stops what it had already started. The embedded Postgres left
// running would be adopted by the next `npm start` as "someone else's" and outlive its Ctrl+C.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runningPort } from '../../db/embedded';
import { startLaptop } from '../../scripts/start';

const dataDir = path.resolve('.data/test', `npm-start-${process.pid}-${Date.now()}`);
const blocker = net.createServer();
afterAll(async () => {
  await new Promise<void>((r) => blocker.close(() => r()));
  // A cluster this test could not stop (the failure under test) is stopped here, then its data goes.
  const port = runningPort(path.join(dataDir, 'pg'));
  if (port) {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && runningPort(path.join(dataDir, 'pg')); i++) await new Promise((r) => setTimeout(r, 100));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('stops the embedded Postgres (and the probe daemon) it started when the web port is taken, and says why', { timeout: 120_000 }, async () => {
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    const env = { PORT: String(taken), HOST: '127.0.0.1', DATA_DIR: dataDir, PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    await expect(startLaptop(env)).rejects.toThrow(/EADDRINUSE/);
    expect(runningPort(path.join(dataDir, 'pg')), 'the embedded Postgres is still running').toBeNull();
  });
});
