// The probe daemon: a thin HTTP shell around the library.
//   POST /v1/verify  bearer token; body {emails, depth?, mode?, catch_all?, catch_all_pending?};
//                    streams one NDJSON result per address as it finishes (and a blank line
//                    every 10 s while none is ready); a client that disconnects cancels its work.
//   POST /v1/catch-all  bearer token; body {domain, catch_all}: a fleet peer's random-mailbox answer
//                    for a domain sent as catch_all_pending (204).
//   GET  /healthz    liveness; with the bearer token it also names this process (node: a random id
//                    per start, so a client that lists it under two names uses it once) and the fleet
//                    RCPT budget it holds a share of ({budget, fleet_size, window_ms, node_share}), so
//                    clients can check their PROBE_URLS against the fleet size; with another token,
//                    token_accepted: false
//   GET  /metrics    Prometheus (prom-client); the same bearer token as /v1/verify
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { z } from 'zod';
import { catchAllAnswerSchema, verifyRequestSchema } from '../contract';
import { createVerifier, type ProbeOptions, type Verifier } from '../index';
import { isAuthorized } from './bearer-auth';
import { createProbeMetrics } from './metrics';

/**
 * The largest body the contract allows: 10,000 addresses of up to 1,024 characters, each character up
 * to 6 bytes of JSON (a six-character \u escape), plus the options.
 */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Past the limit, this much more is read (and dropped) so the client can hear the 413 before we close. */
const DRAIN_AFTER_LIMIT_BYTES = 1024 * 1024;
/**
 * A verify stream with nothing to say for this long (its last addresses waiting out greylisting: a
 * minute between retries, ten for a bulk job) sends a blank line, so the client's idle timeout
 * (ProbeClient's fleet.idleTimeoutMs, 60 s) tells a node that waits from one that hangs.
 */
export const STREAM_HEARTBEAT_MS = 10_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The request went away before its body was read (the client hung up): nobody to answer. */
class ClientGone extends Error {}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const announced = Number(req.headers['content-length'] ?? 0);
    if (announced > MAX_BODY_BYTES) {
      over = true;
      reject(new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`));
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        // Answered 413 already: drop the rest, and close once it keeps coming.
        if (size > MAX_BODY_BYTES + DRAIN_AFTER_LIMIT_BYTES) req.destroy();
        return;
      }
      if (size > MAX_BODY_BYTES) {
        over = true;
        chunks.length = 0;
        reject(new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', (err) => reject(req.destroyed ? new ClientGone(err.message) : err));
  });
}

/** A JSON body must say so (415 otherwise: a form or a text body is not a request of ours). */
function requireJson(req: http.IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'content-type must be application/json');
}

/** Parses and validates a JSON body against `schema`; throws HttpError(400) with the reason. */
function parseBody<T>(text: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'body is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new HttpError(400, `${where}${issue?.message ?? 'invalid request'}`);
  }
  return parsed.data;
}

/** Parses and validates a /v1/verify body; throws HttpError(400) with the reason. */
export function parseVerifyBody(text: string): z.output<typeof verifyRequestSchema> {
  return parseBody(text, verifyRequestSchema);
}

/** Resolves once the response can take more (or is gone). */
function drained(res: http.ServerResponse): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The fleet RCPT budget as /healthz reports it to a client with the token. */
export interface HealthBudget {
  budget: number;
  fleet_size: number;
  window_ms: number;
  node_share: number;
}

/**
 * A daemon being stopped (SIGTERM: a deploy, a scale-down) drains: it takes no new connection,
 * answers new verify requests and /healthz with 503 (a fleet client sends that work to the other
 * nodes), and lets the streams under way finish, up to the drain deadline.
 */
export interface DrainState {
  draining: boolean;
  /** Verify streams under way, each settled when its answer has ended. */
  readonly streams: Set<Promise<void>>;
}

export function createProbeServer(o: { token: string; previousToken?: string; verifier: Verifier; budget?: HealthBudget; drain?: DrainState; heartbeatMs?: number }): http.Server {
  const metrics = createProbeMetrics();
  const drain = o.drain ?? { draining: false, streams: new Set<Promise<void>>() };
  /** Who this node is, whatever name a client reaches it by. */
  const node = randomUUID();

  function authorize(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (!isAuthorized(req.headers.authorization, o.token, o.previousToken)) {
      res.setHeader('www-authenticate', 'Bearer');
      throw new HttpError(401, 'missing or wrong bearer token');
    }
  }

  async function verify(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    authorize(req, res);
    if (drain.draining) throw new HttpError(503, 'this probe node is shutting down');
    requireJson(req);
    const body = parseVerifyBody(await readBody(req));
    const stream = streamResults(res, body);
    drain.streams.add(stream);
    try {
      await stream;
    } finally {
      drain.streams.delete(stream);
    }
  }

  async function streamResults(res: http.ServerResponse, body: ReturnType<typeof parseVerifyBody>): Promise<void> {
    const abort = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) abort.abort();
    };
    res.on('close', onClose);
    metrics.inFlight.inc();
    metrics.requests.inc({ status: '200' });
    // A proxy in front of the node (nginx buffers by default; a compressing one holds bytes back) must
    // pass each line on as it comes: held back, results arrive late and the keep-alive blank lines
    // never reach the client, whose idle timeout then takes a node that waits for a hung one.
    res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no', 'x-content-type-options': 'nosniff' });
    res.flushHeaders();
    // Results that finish together (a session's recipients) leave in one chunk: lines are gathered
    // until the event loop moves on (or 64 KB), then written at once.
    let pending = '';
    let flushAt: NodeJS.Immediate | null = null;
    let wrote = false;
    const flush = (): void => {
      flushAt = null;
      if (pending !== '' && !res.destroyed) {
        res.write(pending);
        wrote = true;
      }
      pending = '';
    };
    // Nothing written since the last tick (every address left is waiting): a blank line, which NDJSON
    // readers skip, says the node is alive. Not while the client is not reading (backpressure).
    const heartbeat = setInterval(() => {
      if (!wrote && !res.destroyed && !res.writableNeedDrain) res.write('\n');
      wrote = false;
    }, o.heartbeatMs ?? STREAM_HEARTBEAT_MS);
    try {
      for await (const r of o.verifier.verifyBatch(body.emails, { depth: body.depth, mode: body.mode, signal: abort.signal, catchAllHints: body.catch_all, catchAllPending: body.catch_all_pending })) {
        metrics.observe(r);
        pending += `${JSON.stringify(r)}\n`;
        if (pending.length >= 65_536) flush();
        else flushAt ??= setImmediate(flush);
        if (res.writableNeedDrain) await drained(res);
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') console.error('probe: verify stream failed:', err);
    } finally {
      clearInterval(heartbeat);
      if (flushAt) clearImmediate(flushAt);
      flush();
      metrics.inFlight.dec();
      res.off('close', onClose);
      res.end();
    }
  }

  return http.createServer((req, res) => {
    // The path alone (a request target like "//[" is no URL, and must not take the process down).
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = `${req.method} ${path}`;
    const handle = async (): Promise<void> => {
      switch (route) {
        case 'GET /healthz':
          if (drain.draining) return sendJson(res, 503, { ok: false, draining: true });
          // A token that is not ours is said so (as /v1/verify's 401 would): the client then knows it
          // was not told the budget, rather than told there is none.
          if (req.headers.authorization !== undefined && !isAuthorized(req.headers.authorization, o.token, o.previousToken)) return sendJson(res, 200, { ok: true, token_accepted: false });
          if (!isAuthorized(req.headers.authorization, o.token, o.previousToken)) return sendJson(res, 200, { ok: true });
          return sendJson(res, 200, o.budget ? { ok: true, node, mx_rcpt_budget: o.budget } : { ok: true, node });
        case 'GET /metrics': {
          authorize(req, res);
          const text = await metrics.registry.metrics();
          res.writeHead(200, { 'content-type': metrics.registry.contentType });
          res.end(text);
          return;
        }
        case 'POST /v1/verify':
          return verify(req, res);
        case 'POST /v1/catch-all': {
          authorize(req, res);
          requireJson(req);
          const answer = parseBody(await readBody(req), catchAllAnswerSchema);
          o.verifier.answerCatchAll(answer.domain, answer.catch_all);
          res.writeHead(204);
          res.end();
          return;
        }
        default:
          if (['/healthz', '/metrics', '/v1/verify', '/v1/catch-all'].includes(path)) throw new HttpError(405, `method ${req.method} not allowed`);
          throw new HttpError(404, 'not found');
      }
    };
    handle().catch((err: unknown) => {
      if (err instanceof ClientGone) {
        // The client hung up mid-body: no one to answer, nothing went wrong here (nginx's 499).
        if (route === 'POST /v1/verify') metrics.requests.inc({ status: '499' });
        return;
      }
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) console.error('probe: request failed:', err);
      if (route === 'POST /v1/verify') metrics.requests.inc({ status: String(status) });
      if (res.headersSent) {
        res.end();
        return;
      }
      // A 413 is sent before the rest of the body is read: close after it rather than read it all.
      if (status === 413) res.setHeader('connection', 'close');
      sendJson(res, status, { error: err instanceof HttpError ? err.message : 'internal error' });
    });
  });
}

/** Fails with a clear message when a PROBE_SOURCE_IP address is not one of this machine's. */
export async function assertLocalAddresses(ips: readonly string[]): Promise<void> {
  for (const ip of ips) {
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', (err: NodeJS.ErrnoException) => reject(new Error(`PROBE_SOURCE_IP ${ip} cannot be used on this machine (${err.code ?? err.message})`)));
      probe.listen(0, ip, () => probe.close(() => resolve()));
    });
  }
}

export interface ProbeDaemon {
  url: string;
  /**
   * Stops the daemon. With `drainMs`, it first drains (DrainState): streams under way may finish
   * for that long, then whatever is left is cut (its clients re-send it). Without, it stops at once.
   */
  close(o?: { drainMs?: number }): Promise<void>;
}

export async function startProbeDaemon(o: { port: number; host?: string; token: string; previousToken?: string; probe?: ProbeOptions; heartbeatMs?: number }): Promise<ProbeDaemon> {
  if (!o.token) throw new Error('a probe daemon needs a token');
  await assertLocalAddresses(o.probe?.sourceIps ?? []);
  const verifier = createVerifier(o.probe);
  const share = o.probe?.mxRcptBudget;
  const budget = share?.fleet ? { budget: share.fleet.budget, fleet_size: share.fleet.size, window_ms: share.windowMs ?? 60_000, node_share: share.rcpts } : undefined;
  const drain: DrainState = { draining: false, streams: new Set() };
  const server = createProbeServer({ token: o.token, previousToken: o.previousToken, verifier, budget, drain, heartbeatMs: o.heartbeatMs });
  const host = o.host ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    async close(c = {}) {
      drain.draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve())); // no new connection; idle ones end
      const drainMs = c.drainMs ?? 0;
      if (drainMs > 0 && drain.streams.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)));
        await Promise.race([Promise.allSettled([...drain.streams]), deadline]);
        clearTimeout(timer);
      }
      server.closeAllConnections(); // cuts what is left: each stream's client hears it end early
      await Promise.allSettled([...drain.streams]);
      await verifier.close();
      await closed;
    },
  };
}
