// Production entry: `tsx server/main.ts web|worker|all` with DATABASE_URL set (the Dockerfile's
// roles). `npm start` (scripts/start.ts) wraps the same pieces with an embedded Postgres.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { closeDeps, createDeps } from './boot';
import type { AppDeps } from './deps';
import { readEnv, type Env } from './env';
import { createRequestListener } from './http/app';
import { answerConnect, clientErrorAnswer, expectationAnswer } from './http/client-error';
import { HTTP_TIMEOUTS, serverTimeoutOptions, watchBodyIdle, type HttpTimeouts } from './http/slow-client';
import { probeUrl } from '../probe/client/probe-client';
import { startWorker } from './worker/runner';

export type Role = 'web' | 'worker' | 'all';

export interface RunningServer {
  url: string | null;
  deps: AppDeps;
  stop(): Promise<void>;
}

export const SPA_DIR = path.resolve(import.meta.dirname, '..', 'dist');

/** Requests in flight when a web process is told to stop get this long to finish (then their connections are closed). */
export const SHUTDOWN_GRACE_MS = 20_000;

/**
 * Stops taking connections at once, lets the requests in flight finish (closing each keep-alive
 * connection as soon as it is idle), ends live streams, and after `graceMs` closes whatever is left.
 */
function closeGracefully(server: http.Server, streams: Set<http.ServerResponse>, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
    for (const res of streams) res.destroy();
  });
}

export async function startServer(o: {
  env: Env;
  role: Role;
  databaseUrl: string;
  probe: { urls: string[]; token: string };
  baseURL?: string;
  spaDir?: string;
  /** How long a stop waits for requests in flight before it closes their connections (default SHUTDOWN_GRACE_MS). */
  shutdownGraceMs?: number;
  /** Share PORT with other web processes on this host (SO_REUSEPORT: the kernel spreads connections; `npm run bench:api -- --web-processes n`). */
  reusePort?: boolean;
  /** How long a client may take to send its request (default HTTP_TIMEOUTS; tests shorten them). */
  httpTimeouts?: Partial<HttpTimeouts>;
}): Promise<RunningServer> {
  const deps = await createDeps({ env: o.env, databaseUrl: o.databaseUrl, probe: o.probe, baseURL: o.baseURL });
  const stops: Array<() => Promise<void>> = [];
  let url: string | null = null;
  if (o.role !== 'worker') {
    const listener = createRequestListener(deps, { spaDir: o.spaDir ?? SPA_DIR });
    // Live streams (the dashboard's job events over SSE) never end by themselves: on stop they are
    // closed at once (EventSource reconnects, to another process behind the balancer).
    const streams = new Set<http.ServerResponse>();
    // A client too slow with its headers or body gets a 408 and its connection closed (http/slow-client.ts).
    const timeouts: HttpTimeouts = { ...HTTP_TIMEOUTS, ...o.httpTimeouts };
    // requireHostHeader off: a request without Host is refused by the app's host guard, with a JSON body (Node's had none).
    // Refusals before any route: problem+json on /v1, the dashboard envelope elsewhere (http/client-error.ts).
    const answerClientError = clientErrorAnswer(deps.baseURL);
    const server = http.createServer({ ...serverTimeoutOptions(timeouts), requireHostHeader: false }, (req, res) => {
      watchBodyIdle(req, res, timeouts.bodyIdleMs, answerClientError);
      if (req.headers.accept?.includes('text/event-stream')) {
        streams.add(res);
        res.once('close', () => streams.delete(res));
      }
      listener(req, res);
    });
    server.keepAliveTimeout = timeouts.keepAliveMs;
    // What the HTTP parser refuses, and an Expect we do not meet, get a JSON body too (Node's own answers have none).
    server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => answerClientError(err, socket));
    server.on('checkExpectation', expectationAnswer(deps.baseURL));
    server.on('connect', answerConnect);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port: o.env.PORT, host: o.env.HOST, ...(o.reusePort ? { reusePort: true } : {}) }, resolve);
      });
    } catch (err) {
      await closeDeps(deps); // the port is taken (EADDRINUSE…): nothing of this server may stay open
      throw err;
    }
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : o.env.PORT;
    url = `http://localhost:${port}`;
    stops.push(() => closeGracefully(server, streams, o.shutdownGraceMs ?? SHUTDOWN_GRACE_MS));
  }
  if (o.role !== 'web') {
    const runner = await startWorker(deps);
    stops.push(() => runner.stop());
  }
  return {
    url,
    deps,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch((e) => console.error('[server] stop:', e));
      await closeDeps(deps);
    },
  };
}

export const SERVER_USAGE = `Usage: tsx server/main.ts [web|worker|all]

Runs Mailvet's web server (web), its background worker (worker), or both in one process (all, the
default). Reads its settings from the environment (README, "Configuration"): DATABASE_URL,
PROBE_URLS and PROBE_TOKEN are required; npm start runs everything on an embedded database instead.
SIGTERM or SIGINT stops it gracefully.
`;

/** The role from the command line, `help` for --help/-h, or what is wrong with it (exit 2). */
export function parseServerArgs(args: readonly string[]): { role: Role } | { help: true } | { error: string } {
  if (args.some((a) => a === '--help' || a === '-h')) return { help: true };
  if (args.length > 1) return { error: `unexpected argument ${args.slice(1).join(' ')}: give one role, web, worker or all` };
  const role = args[0] ?? 'all';
  if (role !== 'web' && role !== 'worker' && role !== 'all') return { error: `unknown role ${role}: use web, worker or all (--help)` };
  return { role };
}

async function main() {
  const parsed = parseServerArgs(process.argv.slice(2));
  if ('help' in parsed) return void process.stdout.write(SERVER_USAGE);
  if ('error' in parsed) {
    console.error(parsed.error);
    process.exit(2);
  }
  const { role } = parsed;
  const env = readEnv();
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is required (use `npm start` for the embedded database)');
  if (!env.PROBE_URLS || !env.PROBE_TOKEN) throw new Error('PROBE_URLS and PROBE_TOKEN are required');
  const server = await startServer({ env, role, databaseUrl: env.DATABASE_URL, probe: { urls: env.PROBE_URLS.split(',').map((u) => u.trim()).filter(Boolean).map(probeUrl), token: env.PROBE_TOKEN } });
  console.log(`Mailvet ${role} started${server.url ? ` on ${server.url}` : ''}`);
  const shutdown = () => {
    void server.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    // What is wrong, not a stack trace: a missing variable or a taken port is the operator's to fix.
    const e = err as NodeJS.ErrnoException;
    console.error(e instanceof Error && (e.message.startsWith('Invalid environment') || e.message.startsWith('Refused in production') || e.code === 'EADDRINUSE' || /is required|must be/.test(e.message)) ? e.message : err);
    process.exit(1);
  });
}
