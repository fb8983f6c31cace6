// Two plain-HTTP doors for bulk jobs, beside tRPC, for what JSON carries badly:
//   POST /api/jobs/upload?filename=list.csv   body: the file's bytes (fetch(url, { body: file })), ≤ 10 MB
//        → 200 { jobId, totalEmails, fileName, duplicates, skipped } | 4xx { error: { code, title?, message } }
//        (duplicates: addresses counted once; skipped: values too long to be an address, left out)
//   GET  /api/jobs/:jobId/export[?result=valid|invalid|risky] → the result CSV as a download (UTF-8, BOM first)
//        (completed jobs only; `result` keeps only those verdicts, comma-separated)
// Same session cookie, same services and the same plan gate as the tRPC procedures.
import express, { type Request, type Response } from 'express';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../../contracts/jobs';
import { planAllows } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { consumeApiRequest } from '../../rest/rate-limit';
import { rateLimitMessage } from '../../trpc/procedures';
import { uploadBulkFile, uploadTooLarge } from './jobs.service';
import { exportJobCsv, parseResultKinds } from './job-results';
import { rawBodyGuard } from '../../http/body-guard';
import { sendError } from '../../http/send-error';
import { admitSessionMember, sessionMember, type SessionMember } from '../../http/session-member';
import { AppError } from '../../lib/app-error';

export function jobsHttpRouter(deps: AppDeps): express.Router {
  const r = express.Router();

  r.post(
    '/api/jobs/upload',
    // Refuse early (before reading 10 MB) when not signed in or not on a plan with CSV upload.
    admitSessionMember(
      deps,
      async (caller, res) => {
        if (!planAllows(caller.plan, 'csvUpload')) throw new AppError('PLAN_REQUIRED', 'CSV upload is available on paid plans. Upgrade to upload lists.');
        // The dashboard budget, per account (the same as the tRPC procedures).
        const rate = await consumeApiRequest(deps.pool, caller.plan, caller.accountId, 'dashboard');
        if (!rate.allowed) {
          res.setHeader('Retry-After', String(rate.retryAfterSeconds));
          throw new AppError('RATE_LIMITED', rateLimitMessage(rate.limit, rate.retryAfterSeconds), { details: { retryAfterSeconds: rate.retryAfterSeconds } });
        }
      },
      UPLOAD_MESSAGES.failed.message,
    ),
    // The bytes, bounded (server/http/body-guard.ts): past 10 MB → 413 before reading on.
    rawBodyGuard({
      limit: MAX_UPLOAD_BYTES,
      reply: (res, err) => sendError(res, err),
      tooLarge: uploadTooLarge,
    }),
    async (req: Request, res: Response) => {
      try {
        const caller = res.locals.caller as SessionMember;
        const filename = typeof req.query.filename === 'string' ? req.query.filename : '';
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const out = await uploadBulkFile(deps, caller, { filename, bytes, type: req.headers['content-type'] ?? null });
        res.json({ jobId: out.jobId, totalEmails: out.totalEmails, fileName: out.fileName, duplicates: out.duplicates, skipped: out.skipped });
      } catch (err) {
        sendError(res, err, UPLOAD_MESSAGES.failed.message);
      }
    },
  );

  r.get('/api/jobs/:jobId/export', async (req: Request, res: Response) => {
    try {
      const caller = await sessionMember(deps, req);
      const jobId = String(req.params.jobId ?? '');
      const results = parseResultKinds(req.query.result);
      const out = await exportJobCsv(deps.db, caller.accountId, jobId, { results });
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${out.filename}"`);
      res.setHeader('Cache-Control', 'no-store');
      // A UTF-8 byte-order mark first: Excel reads a CSV without one in the Windows code page, so a
      // non-ASCII address ("josé@…") showed as mojibake. (/v1's CSV, read by programs, has none.)
      res.send(`\uFEFF${out.csv}`);
    } catch (err) {
      sendError(res, err, UPLOAD_MESSAGES.failed.message);
    }
  });
  return r;
}
