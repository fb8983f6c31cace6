// The database a laptop process uses when DATABASE_URL is unset: the embedded Postgres under
// DATA_DIR/pg. If another process (npm start, the CLI) already runs it, connect to that one.
import path from 'node:path';
import { embeddedUrl, freePort, runningPort, startEmbeddedPostgres } from '../db/embedded';

export interface LocalDb {
  url: string;
  /** True when this process started the server and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

const DEFAULT_PORT = 54329;

export async function openLocalDb(o: { databaseUrl?: string; dataDir: string }): Promise<LocalDb> {
  if (o.databaseUrl) return { url: o.databaseUrl, owned: false, stop: async () => undefined };
  const dataDir = path.resolve(o.dataDir, 'pg');
  const port = runningPort(dataDir);
  if (port) return { url: embeddedUrl(port, 'mailvet'), owned: false, stop: async () => undefined };
  const wanted = (await isFree(DEFAULT_PORT)) ? DEFAULT_PORT : await freePort();
  const pg = await startEmbeddedPostgres({ dataDir, port: wanted, database: 'mailvet', persistent: true });
  return { url: pg.url, owned: true, stop: pg.stop };
}

async function isFree(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
