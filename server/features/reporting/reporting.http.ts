// GET /api/reports/analytics.csv?from=YYYY-MM-DD&to=YYYY-MM-DD&source=dashboard|api|schedule&timeZone=Area/City
// Business and up; the session's active account only.
import express, { type Request, type Response } from 'express';
import type { AppDeps } from '../../deps';
import { sendError } from '../../http/send-error';
import { sessionMember } from '../../http/session-member';
import { AppError } from '../../lib/app-error';
import { analyticsCsv, reportInput } from './reporting.service';

export function reportingHttpRouter(deps: AppDeps): express.Router {
  const r = express.Router();
  r.get('/api/reports/analytics.csv', async (req: Request, res: Response) => {
    try {
      const m = await sessionMember(deps, req);
      const one = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
      const parsed = reportInput.safeParse({ from: one(req.query.from), to: one(req.query.to), source: one(req.query.source), timeZone: one(req.query.timeZone) });
      if (!parsed.success) throw new AppError('BAD_INPUT', parsed.error.issues[0]?.message ?? 'Bad report filters.');
      const { csv, fileName } = await analyticsCsv(deps.db, { accountId: m.accountId, plan: m.plan, input: parsed.data });
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
      // A UTF-8 byte-order mark first, as the result download (jobs.http.ts): Excel reads a CSV
      // without one in the Windows code page, and schedule names are the user's own text.
      res.send(`\uFEFF${csv}`);
    } catch (err) {
      sendError(res, err);
    }
  });
  return r;
}
