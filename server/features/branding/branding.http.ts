// Plain-HTTP doors of white-label:
//   POST /api/branding/logo            the logo's bytes (PNG or SVG, ≤ 256 KB), owner/admin, Business+
//   GET  /api/branding/logo/:id.png    an account's logo (always PNG; SVGs were rasterised on upload)
//   GET  /api/public-branding          the brand of the custom domain this request came to (Host), or {}
import express, { type Request, type Response } from 'express';
import { can } from '../../contracts/permissions';
import { planAllows } from '../../contracts/plans';
import type { AppDeps } from '../../deps';
import { rawBodyGuard } from '../../http/body-guard';
import { sendError } from '../../http/send-error';
import { admitSessionMember } from '../../http/session-member';
import { AppError } from '../../lib/app-error';
import { GATE_MESSAGES } from '../../trpc/procedures';
import { BRANDING_MESSAGES, brandForHost, logoPng, MAX_LOGO_BYTES, setLogo } from './branding.service';

export function brandingHttpRouter(deps: AppDeps): express.Router {
  const r = express.Router();

  r.post(
    '/api/branding/logo',
    admitSessionMember(deps, (m) => {
      if (!can(m.role, 'webhooks.manage')) throw new AppError('PERMISSION_DENIED', 'Only the account owner or an admin can change the branding.');
      // Refuse before reading the body when the plan has no white-label.
      if (!planAllows(m.plan, 'whiteLabel')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.whiteLabel);
    }),
    // The bytes, bounded as every upload's (server/http/body-guard.ts): 413 past 256 KB, 415 for an
    // unknown Content-Encoding, 400 for a body that cannot be read (a broken gzip, a cut stream).
    rawBodyGuard({ limit: MAX_LOGO_BYTES, reply: (res, err) => sendError(res, err), tooLarge: () => new AppError('PAYLOAD_TOO_LARGE', BRANDING_MESSAGES.logoSize) }),
    async (req: Request, res: Response) => {
      try {
        const c = res.locals.caller as { userId: string; accountId: string; plan: Parameters<typeof setLogo>[1]['plan'] };
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        res.json(await setLogo(deps.db, { ...c, bytes }));
      } catch (err) {
        sendError(res, err);
      }
    },
  );

  r.get('/api/branding/logo/:file', async (req: Request, res: Response) => {
    const m = /^([A-Za-z0-9_-]{1,100})\.png$/.exec(String(req.params.file ?? ''));
    const png = m ? await logoPng(deps.db, m[1]!) : null;
    if (!png) {
      res.status(404).json({ error: { code: 'NOT_FOUND', message: 'No logo.' } });
      return;
    }
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.send(png);
  });

  r.get('/api/public-branding', async (req: Request, res: Response) => {
    const brand = await brandForHost(deps.db, req.hostname || req.get('host'));
    res.setHeader('Cache-Control', 'no-store');
    res.json(brand ? { productName: brand.productName, brandColor: brand.brandColor, logoUrl: brand.logoUrl, senderName: brand.senderName, domain: brand.domain } : {});
  });
  return r;
}
