// Spec route table: "any other path | public | 404 page 'Oops! Page not found'". The SPA drew that page
// for any unknown path, but the server answered it 200: a link checker found no dead link, and a
// search engine indexed every mistyped or removed URL as a page of its own. The page is now answered
// 404 (the same HTML, so the visitor still sees the 404 page with its link home); every page of the
// SPA stays 200, spelt as React Router matches it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_PATHS } from '../../server/contracts/pages';
import { startTestServer, type TestServer } from '../helpers/test-server';

const spaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-spa-404-'));
const PAGE = '<!doctype html><title>Mailvet</title><div id="root"></div>';
let ts: TestServer;

beforeAll(async () => {
  fs.writeFileSync(path.join(spaDir, 'index.html'), PAGE);
  ts = await startTestServer({ spaDir });
});
afterAll(async () => {
  await ts?.stop();
  fs.rmSync(spaDir, { recursive: true, force: true });
});

describe("the SPA's page", () => {
  it('is a 200 at every page of the route table, spelt as the router matches it', async () => {
    expect(PAGE_PATHS).toEqual(expect.arrayContaining(['/', '/features', '/pricing', '/documentation', '/about', '/contact', '/privacy', '/terms', '/security', '/auth', '/dashboard', '/dashboard/documentation', '/dashboard/settings']));
    for (const target of [...PAGE_PATHS, '//dashboard', '/Pricing', '/pricing/', '/dashboard/api-keys/', '/auth?token=abc']) {
      const res = await fetch(`${ts.url}${target}`);
      expect(res.status, target).toBe(200);
      expect(await res.text(), target).toBe(PAGE);
    }
  });

  it('is a 404 at any other path: the same page (it shows "Oops! Page not found"), with its policy, HEAD alike', async () => {
    for (const target of ['/no/such/page', '/pricing/x', '/documentation/foo', '/dashboard/nope', '/dashboard/api-keys/x', '/featuress', '/%E2%82%AC']) {
      const res = await fetch(`${ts.url}${target}`);
      expect(res.status, target).toBe(404);
      expect(res.headers.get('content-type'), target).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy'), target).toContain("default-src 'self'");
      expect(res.headers.get('cache-control'), target).toBe('no-cache');
      expect(await res.text(), target).toBe(PAGE);
      const head = await fetch(`${ts.url}${target}`, { method: 'HEAD' });
      expect(head.status, `HEAD ${target}`).toBe(404);
      expect(await head.text()).toBe('');
    }
  });
});
