// The database a laptop process uses when DATABASE_URL is unset: the embedded Postgres under
// DATA_DIR/pg. If another process (npm start, the CLI) already runs it, connect to that one.
//
// The process that starts it writes its pid to DATA_DIR/pg.owner. A Postgres found running whose
// owner is gone (its `npm start` killed with -9, its terminal closed) is an orphan: nobody would
// ever stop it, so the process that finds it takes it over and stops it when it stops.
import fs from 'node:fs';
import path from 'node:path';
import { embeddedUrl, freePort, runningPort, startEmbeddedPostgres } from '../db/embedded';

export interface LocalDb {
  url: string;
  /** True when this process started the server (or took over an orphaned one) and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

const DEFAULT_PORT = 54329;

export async function openLocalDb(o: { databaseUrl?: string; dataDir: string }): Promise<LocalDb> {
  if (o.databaseUrl) return { url: o.databaseUrl, owned: false, stop: async () => undefined };
  const dataDir = path.resolve(o.dataDir, 'pg');
  const ownerFile = path.resolve(o.dataDir, 'pg.owner');
  const port = runningPort(dataDir);
  if (port) {
    const url = embeddedUrl(port, 'mailvet');
    if (ownerAlive(ownerFile)) return { url, owned: false, stop: async () => undefined };
    claim(ownerFile);
    return { url, owned: true, stop: () => stopOrphan(dataDir, ownerFile) };
  }
  const wanted = (await isFree(DEFAULT_PORT)) ? DEFAULT_PORT : await freePort();
  const pg = await startEmbeddedPostgres({ dataDir, port: wanted, database: 'mailvet', persistent: true });
  claim(ownerFile);
  return {
    url: pg.url,
    owned: true,
    stop: async () => {
      await pg.stop();
      release(ownerFile);
    },
  };
}

function ownerAlive(ownerFile: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(ownerFile, 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

function claim(ownerFile: string): void {
  fs.writeFileSync(ownerFile, `${process.pid}\n`);
}

function release(ownerFile: string): void {
  try {
    if (Number(fs.readFileSync(ownerFile, 'utf8').trim()) === process.pid) fs.rmSync(ownerFile, { force: true });
  } catch {
    // already gone
  }
}

/** Stops a Postgres this process took over: a fast shutdown (SIGINT to the postmaster), waited for. */
async function stopOrphan(dataDir: string, ownerFile: string): Promise<void> {
  let pid = 0;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    // stopped already
  }
  if (runningPort(dataDir) !== null && pid > 0) {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 600 && runningPort(dataDir) !== null; i++) await new Promise((r) => setTimeout(r, 50));
  }
  release(ownerFile);
}

async function isFree(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
