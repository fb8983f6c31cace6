// The Razorpay client never follows a redirect: every call carries the key secret (HTTP basic auth),
// and a 3xx from the API's address (or whoever answers for it) must not send the call, or the
// secret, anywhere else. A redirect is a failed call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../env';
import { paymentGateway } from './razorpay';

const elsewhere: Array<{ url: string; authorization: string | undefined }> = [];
let api: http.Server;
let other: http.Server;
let apiUrl = '';

function listen(server: http.Server, host: string): Promise<string> {
  return new Promise((resolve) => server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  other = http.createServer((req, res) => {
    elsewhere.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ id: 'sub_elsewhere', status: 'active' }));
  });
  const otherUrl = await listen(other, '127.0.0.2');
  api = http.createServer((req, res) => {
    res.statusCode = 302;
    res.setHeader('Location', `${otherUrl}${req.url ?? '/'}`);
    res.end();
  });
  apiUrl = await listen(api, '127.0.0.1');
});
afterAll(async () => {
  await Promise.all([api, other].map((s) => new Promise((r) => s.close(r))));
});

describe('Razorpay client', () => {
  it('treats a redirect as a failed call and sends nothing to where it points', async () => {
    const env = readEnv({ NODE_ENV: 'test', RAZORPAY_KEY_ID: 'rzp_test_redirect', RAZORPAY_KEY_SECRET: 'secret-that-stays-home', RAZORPAY_BASE_URL: apiUrl });
    const gateway = paymentGateway(env, 'auth-secret')!;
    expect(gateway.mode).toBe('razorpay');
    await expect(gateway.subscriptionStatus('sub_redirected')).rejects.toBeTruthy();
    expect(elsewhere).toEqual([]);
  });
});
