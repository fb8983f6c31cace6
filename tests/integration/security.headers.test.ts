// The headers a browser enforces for us, on every surface: the SPA's pages carry a Content-Security-
// Policy (scripts from the app itself and Razorpay's hosts only, no plugins, no <base>, never in a
// frame), every answer nosniff, a referrer policy and DENY framing, and over https Strict-Transport-
// Security (a browser that once reached the app never again asks it over plain http, where a café's
// network could answer in its place).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener } from '../../server/http/app';
import { startTestServer, type TestServer } from '../helpers/test-server';

let ts: TestServer;
const spaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-spa-headers-'));
beforeAll(async () => {
  fs.mkdirSync(path.join(spaDir, 'assets'));
  fs.writeFileSync(path.join(spaDir, 'index.html'), '<!doctype html><title>Mailvet</title><div id="root"></div>');
  fs.writeFileSync(path.join(spaDir, 'assets', 'app.js'), 'export {};');
  ts = await startTestServer({ spaDir });
});
afterAll(async () => {
  await ts?.stop();
  fs.rmSync(spaDir, { recursive: true, force: true });
});

/** One answer of each surface: pages, build files, the dashboard API, better-auth, /v1 (Express and its direct door), health, a 404. */
const SURFACES: Array<{ name: string; path: string; init?: RequestInit }> = [
  { name: 'landing page', path: '/' },
  { name: 'dashboard page', path: '/dashboard/history' },
  { name: 'index.html by name', path: '/index.html' },
  { name: 'build file', path: '/assets/app.js' },
  { name: 'dashboard API', path: '/api/trpc/account.me' },
  { name: 'better-auth', path: '/api/auth/get-session' },
  { name: 'public API', path: '/v1/account' },
  { name: 'public API, direct door', path: '/v1/validate', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' } },
  { name: 'health', path: '/healthz' },
  { name: 'nothing here', path: '/api/nothing' },
];

/** The policy's directives, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

describe('security headers', () => {
  it('every surface says nosniff, a referrer policy and DENY framing', async () => {
    for (const s of SURFACES) {
      const res = await fetch(`${ts.url}${s.path}`, s.init);
      await res.arrayBuffer();
      expect(res.headers.get('x-content-type-options'), s.name).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), s.name).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options'), s.name).toBe('DENY');
    }
  });

  it("the SPA's pages carry a Content-Security-Policy: scripts only from the app and Razorpay, no plugins, no <base>, no framing", async () => {
    for (const page of ['/', '/dashboard/history', '/auth', '/index.html', '/no-such-page']) {
      const res = await fetch(`${ts.url}${page}`);
      expect(res.headers.get('content-type'), page).toMatch(/^text\/html/);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp.get('default-src'), `${page}: default-src`).toEqual(["'self'"]);
      const scripts = csp.get('script-src') ?? [];
      expect(scripts, `${page}: script-src`).toContain("'self'");
      expect(scripts, `${page}: script-src`).toContain('https://*.razorpay.com'); // checkout.js, and what it loads from cdn.razorpay.com
      // An injected <script>, an onclick="…" or an eval() never runs.
      for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'https:', 'data:']) expect(scripts, `${page}: script-src ${unsafe}`).not.toContain(unsafe);
      // No image, request or frame to just any host: a dangling <img src="https://… in markup sends nothing away.
      for (const d of ['img-src', 'connect-src', 'frame-src', 'default-src']) expect(csp.get(d), `${page}: ${d}`).not.toContain('https:');
      expect(csp.get('object-src'), `${page}: object-src`).toEqual(["'none'"]);
      expect(csp.get('base-uri'), `${page}: base-uri`).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), `${page}: frame-ancestors`).toEqual(["'none'"]);
      expect(csp.get('form-action')?.[0], `${page}: form-action`).toBe("'self'");
      // A page is fetched again at each visit: a deploy reaches every tab that reloads (index.html by name too).
      expect(res.headers.get('cache-control'), page).toBe('no-cache');
      await res.arrayBuffer();
    }
  });

  it('over https, every surface tells the browser to come back over https only (HSTS); over plain http it says nothing', async () => {
    for (const s of SURFACES) {
      const res = await fetch(`${ts.url}${s.path}`, s.init);
      await res.arrayBuffer();
      expect(res.headers.get('strict-transport-security'), `${s.name} over http`).toBeNull();
    }
    // The same app with an https BASE_URL (TLS ends at the balancer in front of it).
    const listener = createRequestListener({ ...ts.server.deps, baseURL: 'https://app.mailvet.test' }, { spaDir });
    const server = http.createServer(listener);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const s of SURFACES) {
        const res = await fetch(`${url}${s.path}`, s.init);
        await res.arrayBuffer();
        expect(res.headers.get('strict-transport-security'), s.name).toBe('max-age=31536000');
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
