// A logo SVG that is cheap to send and dear to draw (a few KB of blur filters over a large filter
// region: seconds of resvg per element, 256 KB of them ≈ 45 minutes) must not hold the web server:
// the drawing runs apart from the server's event loop, is stopped at a deadline, and the upload is
// refused with a clear 400 that says what to do. The last good logo stays. Other requests are
// answered meanwhile.
import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpOnPlan } from './jobs.world';
import { startTestServer, type Browserless, type TestServer } from '../helpers/test-server';
import { BRANDING_MESSAGES } from '../../server/features/branding/branding.service';

let ts: TestServer;
let owner: Browserless;

beforeAll(async () => {
  ts = await startTestServer();
  owner = (await signUpOnPlan(ts, 'svg-cost@example.com', 'business')).client;
});
afterAll(async () => {
  await ts?.stop();
});

const cookieOf = (c: Browserless) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const upload = (body: string | Buffer, type: string) =>
  fetch(`${ts.url}/api/branding/logo`, { method: 'POST', headers: { cookie: cookieOf(owner), origin: ts.url, 'content-type': type }, body });

/** ~2 KB: 40 rectangles, each blurred over a filter region 20 times the canvas (≈ 0.5 s of resvg each here). */
const costlySvg = () => {
  const rects = Array.from({ length: 40 }, () => '<rect width="512" height="512" filter="url(#f)"/>').join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><filter id="f" x="-10" y="-10" width="20" height="20"><feGaussianBlur stdDeviation="50"/></filter>${rects}</svg>`;
};

describe('a logo SVG that takes too long to draw', () => {
  it('is refused with a 400 while the server keeps answering; the last good logo stays', { timeout: 120_000 }, async () => {
    const good = Buffer.from(new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#123456"/></svg>').render().asPng());
    const first = await upload(good, 'image/png');
    expect(first.status).toBe(200);
    const goodUrl = ((await first.json()) as { logoUrl: string }).logoUrl;

    const order: string[] = [];
    const costly = upload(costlySvg(), 'image/svg+xml').then(async (res) => {
      order.push('upload');
      return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
    });
    // Let the upload reach the rasteriser, then ask for something cheap.
    await new Promise((r) => setTimeout(r, 300));
    const health = await fetch(`${ts.url}/healthz`);
    order.push('healthz');
    expect(health.status).toBe(200);

    const refused = await costly;
    expect(order, 'the server answered nothing else while it drew the logo').toEqual(['healthz', 'upload']);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'BAD_INPUT', message: BRANDING_MESSAGES.svgTooCostly });
    expect((await owner.trpcQuery('branding.current')).body.result.data.logoUrl).toBe(goodUrl);
  });

  it('an SVG that would draw taller than 2048 px is refused like an oversized PNG (width="1" height="100000" asked resvg for ~100 GB)', async () => {
    // 10 × 300 drawn 512 wide is 512 × 15,360: refused without drawing (the 1 × 100,000 case is the same rule).
    for (const [w, h] of [[10, 300], [1, 100_000]]) {
      const res = await upload(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}"/></svg>`, 'image/svg+xml');
      expect(res.status, `${w}×${h}`).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(BRANDING_MESSAGES.logoDims);
    }
  });

  // The checks before drawing read the text in one pass: a backtracking pattern took time exponential
  // in the number of leading comments (31 empty ones, 218 bytes: a minute and a half here; 40: hours) and
  // quadratic in the blanks after href=" (200 KB: ~30 s), holding the server's event loop meanwhile.
  // The server runs in this process, so a regression shows as this test's timeout.
  it.each([
    ['31 leading comments and no <svg>', `${'<!---->'.repeat(31)}x`, BRANDING_MESSAGES.logoType],
    ['31 leading comments, then <svgx', `${'<!-- a -->\n'.repeat(31)}<svgx/>`, BRANDING_MESSAGES.logoType],
    ['href=" and 200 KB of blanks, never closed', `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><a href="${' '.repeat(200_000)}</svg>`, BRANDING_MESSAGES.svgBroken],
  ])('%s: refused at once', { timeout: 10_000 }, async (_name, svg, message) => {
    const res = await upload(svg, 'image/svg+xml');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
  });

  it('comments before <svg> and in-document hrefs are still fine', async () => {
    const svg = `<?xml version="1.0"?>\n<!-- made by hand -->\n<!-- second -->\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20"><defs><rect id="r" width="40" height="20" fill="#123456"/></defs><use xlink:href=" #r "/><use href='#r'/></svg>`;
    expect((await upload(svg, 'image/svg+xml')).status).toBe(200);
    for (const outside of ['<svg xmlns="http://www.w3.org/2000/svg"><image href=" http://169.254.169.254/x"/></svg>', "<svg xmlns=\"http://www.w3.org/2000/svg\"><image xlink:href = 'file:///etc/passwd'/></svg>"]) {
      const res = await upload(outside, 'image/svg+xml');
      expect(res.status, outside).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(BRANDING_MESSAGES.svgUnsafe);
    }
  });

  it('an ordinary SVG logo is still drawn', async () => {
    const res = await upload('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><circle cx="20" cy="20" r="18" fill="#4f46e5"/><text x="50" y="28">Acme</text></svg>', 'image/svg+xml');
    expect(res.status).toBe(200);
    const { logoUrl } = (await res.json()) as { logoUrl: string };
    const served = Buffer.from(await (await fetch(`${ts.url}${logoUrl}`)).arrayBuffer());
    expect(served.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
