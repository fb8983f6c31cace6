// Two plain-HTTP doors for bulk jobs, beside tRPC, for what JSON carries badly:
//   POST /api/jobs/upload?filename=list.csv   body: the file's bytes (fetch(url, { body: file })), ≤ 10 MB
//        → 200 { jobId, totalEmails, fileName, duplicates } | 4xx { error: { code, title?, message } }
//   GET  /api/jobs/:jobId/export[?result=valid|invalid|risky] → the result CSV as a download
//        (completed jobs only; `result` keeps only those verdicts, comma-separated)
// Same session cookie, same services and the same plan gate as the tRPC procedures.
import { fromNodeHeaders } from 'better-auth/node';
import express, { type NextFunction, type Request, type Response } from 'express';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../../contracts/jobs';
import { planAllows } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { consumeApiRequest } from '../../rest/rate-limit';
import { rateLimitMessage } from '../../trpc/procedures';
import { resolveMembership } from '../account/membership';
import { uploadBulkFile } from './jobs.service';
import { exportJobCsv, parseResultKinds } from './job-results';
import { rawBodyGuard } from '../../http/body-guard';
import { sendError } from '../../http/send-error';
import { AppError } from '../../lib/app-error';

interface Caller {
  userId: string;
  accountId: string;
  plan: Awaited<ReturnType<typeof resolveMembership>> extends infer M ? (M extends { plan: infer P } ? P : never) : never;
}

async function callerOf(deps: AppDeps, req: Request): Promise<Caller> {
  const session = await deps.auth.api.getSession({ headers: fromNodeHeaders(req.headers) }).catch(() => null);
  if (!session) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
  // The session's active account, exactly as tRPC's accountProcedure resolves it.
  const m = await resolveMembership(deps.db, session.user.id, session.session.id);
  if (!m) throw new AppError('NOT_A_MEMBER', 'User account not found');
  return { userId: session.user.id, accountId: m.accountId, plan: m.plan };
}


export function jobsHttpRouter(deps: AppDeps): express.Router {
  const r = express.Router();

  r.post(
    '/api/jobs/upload',
    async (req: Request, res: Response, next: NextFunction) => {
      // Refuse early (before reading 10 MB) when not signed in or not on a plan with CSV upload.
      try {
        const caller = await callerOf(deps, req);
        if (!planAllows(caller.plan, 'csvUpload')) throw new AppError('PLAN_REQUIRED', 'CSV upload is available on paid plans. Upgrade to upload lists.');
        // The dashboard budget, per account (the same as the tRPC procedures).
        const rate = await consumeApiRequest(deps.pool, caller.plan, caller.accountId, 'dashboard');
        if (!rate.allowed) {
          res.setHeader('Retry-After', String(rate.retryAfterSeconds));
          throw new AppError('RATE_LIMITED', rateLimitMessage(rate.limit, rate.retryAfterSeconds), { details: { retryAfterSeconds: rate.retryAfterSeconds } });
        }
        res.locals.caller = caller;
        next();
      } catch (err) {
        sendError(res, err, UPLOAD_MESSAGES.failed.message);
      }
    },
    // The bytes, bounded (server/http/body-guard.ts): past 10 MB → 413 before reading on.
    rawBodyGuard({
      limit: MAX_UPLOAD_BYTES,
      reply: (res, err) => sendError(res, err),
      tooLarge: () => new AppError('PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.tooLarge.message, { details: { title: UPLOAD_MESSAGES.tooLarge.title } }),
    }),
    async (req: Request, res: Response) => {
      try {
        const caller = res.locals.caller as Caller;
        const filename = typeof req.query.filename === 'string' ? req.query.filename : '';
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const out = await uploadBulkFile(deps, caller, { filename, bytes, type: req.headers['content-type'] ?? null });
        res.json({ jobId: out.jobId, totalEmails: out.totalEmails, fileName: out.fileName, duplicates: out.duplicates });
      } catch (err) {
        sendError(res, err, UPLOAD_MESSAGES.failed.message);
      }
    },
  );

  r.get('/api/jobs/:jobId/export', async (req: Request, res: Response) => {
    try {
      const caller = await callerOf(deps, req);
      const jobId = String(req.params.jobId ?? '');
      const results = parseResultKinds(req.query.result);
      const out = await exportJobCsv(deps.db, caller.accountId, jobId, { results });
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${out.filename}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.send(out.csv);
    } catch (err) {
      sendError(res, err, UPLOAD_MESSAGES.failed.message);
    }
  });
  return r;
}
