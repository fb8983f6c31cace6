// better-auth's routes behind the edge: what a hostile query string or path spelling gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browserless, signUpVerified, startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts?.stop();
});

describe('/api/auth query strings', () => {
  it('a NUL in the reset token sent in the query (not the body) is a 400, never a 500, and changes no password', async () => {
    await signUpVerified(ts, { email: 'edge-auth-nul@example.com', password: 'secret123' });
    const visitor = new Browserless(ts.url);
    for (const q of ['token=%00', 'token=abc%00def']) {
      const res = await visitor.request(`/api/auth/reset-password?${q}`, { json: { newPassword: 'new-password-1' } });
      const text = await res.text();
      expect(res.status, `${q}: ${text}`).toBe(400);
      expect(JSON.parse(text)).toMatchObject({ code: 'INVALID_INPUT', message: 'The input cannot contain NUL (\\u0000) characters.' });
    }
    const signIn = await visitor.request('/api/auth/sign-in/email', { json: { email: 'edge-auth-nul@example.com', password: 'secret123' } });
    expect(signIn.status).toBe(200);
  });
});

describe('/api/auth path spellings', () => {
  it('a listed route spelled with a trailing slash is the allowlist JSON 404, not better-auth empty 404', async () => {
    for (const [method, p] of [
      ['GET', '/api/auth/get-session/'],
      ['GET', '/api/auth/get-session//'],
      ['POST', '/api/auth/sign-in/email/'],
      ['GET', '/api/auth/verify-email/?token=x'],
    ] as const) {
      const res = await new Browserless(ts.url).request(p, method === 'POST' ? { json: { email: 'a@example.com', password: 'secret123' } } : {});
      const text = await res.text();
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(JSON.parse(text), `${method} ${p}`).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
    }
  });
});

describe('/api/auth methods', () => {
  it('a listed route asked with a method it does not take is a 405 naming the ones it does (Allow), and changes nothing', async () => {
    for (const [method, p, allow] of [
      ['GET', '/api/auth/sign-in/email', 'POST'],
      ['PUT', '/api/auth/sign-up/email', 'POST'],
      ['DELETE', '/api/auth/sign-out', 'POST'],
      ['POST', '/api/auth/get-session', 'GET, HEAD'],
      ['PATCH', '/api/auth/verify-email?token=x', 'GET, HEAD'],
      ['POST', '/api/auth/reset-password/abc123', 'GET, HEAD'],
      ['GET', '/api/auth/reset-password', 'POST'],
      ['OPTIONS', '/api/auth/two-factor/verify-totp', 'POST'],
    ] as const) {
      const res = await fetch(`${ts.url}${p}`, { method });
      const text = await res.text();
      expect(res.status, `${method} ${p}: ${text}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${p}`).toBe(allow);
      expect(JSON.parse(text), `${method} ${p}`).toEqual({ code: 'METHOD_NOT_ALLOWED', message: `This route takes ${allow.replace(', ', ' or ')}, not ${method}.` });
    }
  });

  it('a path that is no listed route stays a 404 whatever the method', async () => {
    for (const [method, p] of [
      ['GET', '/api/auth/organization/list'],
      ['POST', '/api/auth/delete-user'],
      ['PUT', '/api/auth/no-such-route'],
    ] as const) {
      const res = await fetch(`${ts.url}${p}`, { method });
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.headers.get('allow'), `${method} ${p}`).toBeNull();
    }
  });
});
