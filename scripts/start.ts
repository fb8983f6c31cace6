// `npm start`: the whole product in one process for a laptop — an embedded PostgreSQL (unless
// DATABASE_URL is set), migrations, a local probe daemon (reached over HTTP like any other,
// unless PROBE_URLS is set), the web server and the worker. Ctrl+C stops all of it.
import crypto from 'node:crypto';
import { startProbeDaemon } from '../probe/daemon/server';
import { probeOptionsFromEnv } from '../probe/env';
import { readEnv, type Env } from '../server/env';
import { startServer } from '../server/main';
import { buildIfStale } from './build-if-stale';
import { openLocalDb } from './local-db';

export interface Laptop {
  url: string;
  env: Env;
  /** Stops the server, the local probe daemon and the embedded Postgres, in that order. */
  stop(): Promise<void>;
}

/** Everything `npm start` runs, from its environment: the embedded Postgres, a probe daemon, web and worker. */
export async function startLaptop(source: NodeJS.ProcessEnv): Promise<Laptop> {
  // Developer tools (dev outbox, test checkout) come with the embedded database unless DEV_TOOLS says otherwise.
  const env = readEnv(source, { laptop: true });
  const db = await openLocalDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  const stops: Array<() => Promise<void>> = [db.stop];
  const stopAll = async () => {
    for (const stop of stops.splice(0)) await stop().catch((e) => console.error(e));
  };
  // A start that fails half-way (the port is taken…) stops what it had started: a Postgres left
  // running would be adopted by the next start as another process's and outlive its Ctrl+C.
  try {
    let probe: { urls: string[]; token: string };
    if (env.PROBE_URLS) {
      probe = { urls: env.PROBE_URLS.split(',').map((u) => u.trim()), token: env.PROBE_TOKEN ?? '' };
    } else {
      const token = env.PROBE_TOKEN ?? crypto.randomBytes(24).toString('hex');
      const daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token, probe: probeOptionsFromEnv(source) });
      stops.unshift(daemon.close);
      probe = { urls: [daemon.url], token };
    }
    // On a laptop, Ctrl+C should not wait long for a slow request (a check waiting on a mail server).
    const server = await startServer({ env, role: 'all', databaseUrl: db.url, probe, shutdownGraceMs: 5_000 });
    stops.unshift(server.stop);
    return { url: server.url ?? '', env, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function main() {
  const started = Date.now();
  buildIfStale();
  const laptop = await startLaptop(process.env);
  const { env } = laptop;
  const server = laptop;
  console.log(`\n  Mailvet is running at ${server.url}  (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!env.SMTP_URL && env.DEV_TOOLS) console.log(`  Mail goes to the dev outbox: ${server.url}/dev/outbox`);
  console.log('  Press Ctrl+C to stop.\n');

  stopOnSignals(laptop);
}

/**
 * Ctrl+C (SIGINT), SIGTERM and a closed terminal (SIGHUP) stop everything, Postgres included, then
 * exit. Without SIGHUP, closing the terminal killed this process and left Postgres running (it takes
 * SIGHUP as "reload its configuration"), an orphan nobody stopped.
 */
export function stopOnSignals(laptop: Pick<Laptop, 'stop'>): void {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping Mailvet…');
    await laptop.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown());
  // `kill <pid of npm>`: npm passes SIGTERM to the shell that runs the script, which dies without
  // passing it on, and this process (then Postgres) ran on as an orphan. A parent gone is a stop too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown();
  }, 500).unref();
}

/** What a failed start prints: a taken web port says what to do, not only `listen EADDRINUSE`. */
export function startError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e?.code === 'EADDRINUSE' && e.port !== undefined) {
    return `Port ${e.port} is already in use on ${e.address ?? 'this machine'}: is Mailvet (npm start) already running? Stop it, or start on another port: PORT=${e.port + 1} npm start`;
  }
  return err instanceof Error ? err.message : String(err);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(startError(err));
    process.exit(1);
  });
}
