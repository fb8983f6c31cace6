// Plain-HTTP doors of billing:
//   POST /api/billing/razorpay/webhook   Razorpay webhooks. Raw body (≤ 256 KB) — mounted before
//        any JSON parser: the signature (X-Razorpay-Signature) is an HMAC of the exact bytes.
//        200 applied or duplicate | 401 bad signature (nothing changed) | 400 malformed | 503 no secret
//   GET  /api/billing/receipts/:paymentId  the payment's receipt (HTML), caller's account only
import express, { type Request, type Response } from 'express';
import type { AppDeps } from '../../deps';
import { rawBodyGuard } from '../../http/body-guard';
import { sendError } from '../../http/send-error';
import { sessionMember } from '../../http/session-member';
import { AppError } from '../../lib/app-error';
import { handleRazorpayWebhook, MAX_WEBHOOK_BYTES } from './billing-webhook';
import { gatewayFor } from './billing-gateway';
import { receiptHtml } from './receipt';

export const WEBHOOK_PATH = '/api/billing/razorpay/webhook';

export function billingHttpRouter(deps: AppDeps): express.Router {
  const r = express.Router();

  r.post(
    WEBHOOK_PATH,
    // The exact bytes, bounded (server/http/body-guard.ts): 413 past the limit, 415 for an unknown
    // Content-Encoding, 400 for an unreadable stream.
    rawBodyGuard({ limit: MAX_WEBHOOK_BYTES, reply: (res, err) => sendError(res, err), tooLarge: () => new AppError('PAYLOAD_TOO_LARGE', 'Webhook body too large.') }),
    async (req: Request, res: Response) => {
      try {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const gateway = gatewayFor(deps);
        const result = await handleRazorpayWebhook(deps, {
          rawBody: body,
          signature: req.get('x-razorpay-signature'),
          eventId: req.get('x-razorpay-event-id'),
          secret: gateway?.webhookSecret ?? null,
          gateway,
        });
        if (result.status === 200) res.status(200).json({ ok: true, outcome: result.outcome });
        else res.status(result.status).json({ error: { code: result.status === 401 ? 'UNAUTHORIZED' : result.status === 503 ? 'UPSTREAM_UNAVAILABLE' : 'BAD_INPUT', message: result.message } });
      } catch (e) {
        // 500: Razorpay retries; the event row rolled back with the rest, so the retry applies it.
        console.error('[billing] webhook failed:', e);
        res.status(500).json({ error: { code: 'INTERNAL_ERROR', message: 'Webhook processing failed.' } });
      }
    },
  );

  r.get('/api/billing/receipts/:paymentId', async (req: Request, res: Response) => {
    try {
      const m = await sessionMember(deps, req);
      const paymentId = String(req.params.paymentId ?? '');
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(paymentId)) throw new AppError('NOT_FOUND', 'We could not find this payment for your account.');
      const { html, fileName } = await receiptHtml(deps.db, { accountId: m.accountId, paymentId });
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      res.setHeader('Content-Disposition', `${req.query.download === '1' ? 'attachment' : 'inline'}; filename="${fileName}"`);
      res.send(html);
    } catch (err) {
      sendError(res, err);
    }
  });
  return r;
}
