// A stand-in for Razorpay's Orders API on 127.0.0.1: POST /v1/orders with Basic auth, answering
// like the real one (entity "order", amount in minor units). Records every request for asserts.
import http from 'node:http';
import { randomBytes } from 'node:crypto';

export interface FakeRazorpayRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeRazorpay {
  url: string;
  keyId: string;
  keySecret: string;
  requests: FakeRazorpayRequest[];
  /** Makes the next order creation fail with this status (e.g. 500 or 401). */
  failNext(status: number): void;
  close(): Promise<void>;
}

export async function startFakeRazorpay(o: { keyId?: string; keySecret?: string } = {}): Promise<FakeRazorpay> {
  const keyId = o.keyId ?? 'rzp_test_fake123';
  const keySecret = o.keySecret ?? 'fake_secret_abc';
  const requests: FakeRazorpayRequest[] = [];
  let failStatus: number | null = null;
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      const error = (status: number, code: string, description: string) => {
        res.statusCode = status;
        res.end(JSON.stringify({ error: { code, description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} } }));
      };
      if (req.headers.authorization !== expectedAuth) return error(401, 'BAD_REQUEST_ERROR', 'Authentication failed');
      if (failStatus !== null) {
        const status = failStatus;
        failStatus = null;
        return error(status, 'SERVER_ERROR', 'The server encountered an error');
      }
      if (req.method === 'POST' && req.url === '/v1/orders') {
        const amount = body.amount;
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) return error(400, 'BAD_REQUEST_ERROR', 'The amount must be atleast INR 1.00');
        res.end(
          JSON.stringify({
            id: `order_${randomBytes(7).toString('hex')}`,
            entity: 'order',
            amount,
            amount_paid: 0,
            amount_due: amount,
            currency: body.currency ?? 'INR',
            receipt: body.receipt ?? null,
            offer_id: null,
            status: 'created',
            attempts: 0,
            notes: body.notes ?? [],
            created_at: Math.floor(Date.now() / 1000),
          }),
        );
        return;
      }
      error(404, 'BAD_REQUEST_ERROR', 'The requested URL was not found on the server.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    keyId,
    keySecret,
    requests,
    failNext(status) {
      failStatus = status;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
