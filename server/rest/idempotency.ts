// Express adapter for Idempotency-Key on /v1 POSTs (the rules live in features/idempotency): claims
// the key before the procedure runs, replays a stored answer, and stores this answer before sending it
// (a server that stops right after answering leaves the answer replayable, not an unanswered claim).
import type { RequestHandler } from 'express';
import { authenticateApiKey } from '../auth/api-key-auth';
import type { AppDeps } from '../deps';
import { claimIdempotencyKey, requestHash, settleIdempotencyKey } from '../features/idempotency/idempotency.service';
import { sendProblem } from '../http/send-error';

export function idempotencyKeys(deps: AppDeps): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers['idempotency-key'];
    if (req.method !== 'POST' || header === undefined) return next();
    try {
      // Keys are per API key: without a valid one there is nothing to scope them to, and the
      // procedure answers 401 anyway.
      const auth = await authenticateApiKey(deps.db, req.headers.authorization);
      if (!auth.ok) return next();
      const key = Array.isArray(header) ? (header[0] ?? '') : header;
      const accountId = auth.principal.accountId;
      const apiKeyId = auth.principal.keyId;
      const claim = await claimIdempotencyKey(deps.db, { accountId, apiKeyId, key, sandbox: auth.principal.isTest, hash: requestHash(req.method, req.path, req.body) });
      if (claim.kind === 'replay') {
        res.status(claim.status).setHeader('Idempotent-Replayed', 'true');
        if (claim.contentType) res.setHeader('Content-Type', claim.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.send(claim.body);
        return;
      }
      const chunks: Buffer[] = [];
      const collect = (chunk: unknown) => {
        if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
        else if (Buffer.isBuffer(chunk)) chunks.push(chunk);
        else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      };
      const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
      const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => typeof res;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        collect(chunk);
        return write(chunk, ...rest);
      }) as typeof res.write;
      // The answer is stored when the procedure ends it, whether or not the client is still there:
      // a client that timed out while its job was being created retries with the same key and must
      // get that job, not a second one (a dropped connection never released the key by itself).
      // It leaves only once stored: had the server stopped in between, the client would hold an
      // answer its retry could not replay (an unanswered claim is released only after the lease).
      let settled = false;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (settled) return end(chunk, ...rest);
        settled = true;
        if (typeof chunk !== 'function') collect(chunk);
        const contentType = res.getHeader('content-type');
        const answer = { status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), contentType: typeof contentType === 'string' ? contentType : null };
        void settleIdempotencyKey(deps.db, { accountId, apiKeyId, key, claimedAt: claim.claimedAt, ...answer })
          .catch((err: unknown) => console.error('[idempotency] could not store the answer:', err instanceof Error ? err.message : err))
          .finally(() => end(chunk, ...rest));
        return res;
      }) as typeof res.end;
      next();
    } catch (err) {
      sendProblem(res, err, deps.baseURL);
    }
  };
}
