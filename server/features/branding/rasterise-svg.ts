// Draws an uploaded logo SVG to PNG with resvg, apart from the server: a few KB of SVG can cost
// minutes of drawing (blur filters over a large region, thousands of masks) or ask for a canvas of
// gigabytes (width="1" height="100000", drawn 512 px wide), and resvg's render is synchronous
// native code: in the web process it held the event loop (every request of every customer waited)
// or took the process down. Here each drawing is a child process of its own (plain `node -e`, no
// loader), one at a time per server process, killed at a deadline; the answer says which refusal.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/** A drawing still running after this is stopped and the upload refused. Ordinary logos take well under 100 ms. */
export const SVG_RENDER_DEADLINE_MS = 5_000;
/** PNG bytes a drawing may hand back (a 512 × 2048 logo is far below). */
const MAX_PNG_BYTES = 16 * 1024 * 1024;

export type RasteriseOutcome = { ok: true; png: Buffer } | { ok: false; reason: 'unreadable' | 'too_large' | 'too_costly' };

const RESVG_PATH = createRequire(import.meta.url).resolve('@resvg/resvg-js');

/**
 * The child: argv[1] resvg's path, argv[2] the options (JSON), argv[3] the largest side; SVG on stdin,
 * PNG on stdout. Exit 3 unreadable, 4 too large: resvg's width/height are the SVG's own, the canvas
 * is scaled to fitTo's width, so the drawn height is height × width ÷ the SVG's width.
 */
const CHILD_SOURCE = `
const { Resvg } = require(process.argv[1]);
const opts = JSON.parse(process.argv[2]);
const maxSide = Number(process.argv[3]);
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  let r;
  try { r = new Resvg(Buffer.concat(chunks).toString('utf8'), opts); } catch { process.exit(3); }
  const drawnHeight = (r.height * opts.fitTo.value) / r.width;
  if (!(r.width > 0 && r.height > 0 && drawnHeight <= maxSide)) process.exit(4);
  let png;
  try { png = r.render().asPng(); } catch { process.exit(3); }
  process.stdout.end(Buffer.from(png));
});
`;

let queue: Promise<unknown> = Promise.resolve();

/** One drawing at a time in this process: a second upload waits for the first (at most the deadline). */
export function rasteriseSvg(svg: string, o: { width: number; maxSide: number }): Promise<RasteriseOutcome> {
  const run = queue.then(() => drawApart(svg, o));
  queue = run.catch(() => undefined);
  return run;
}

function drawApart(svg: string, o: { width: number; maxSide: number }): Promise<RasteriseOutcome> {
  const opts = { fitTo: { mode: 'width', value: o.width }, font: { loadSystemFonts: false }, background: 'rgba(0,0,0,0)' };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', CHILD_SOURCE, RESVG_PATH, JSON.stringify(opts), String(o.maxSide)], { stdio: ['pipe', 'pipe', 'ignore'], env: {} });
    const out: Buffer[] = [];
    let size = 0;
    let verdict: RasteriseOutcome | null = null;
    const stop = (v: RasteriseOutcome) => {
      verdict ??= v;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop({ ok: false, reason: 'too_costly' }), SVG_RENDER_DEADLINE_MS);
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_PNG_BYTES) stop({ ok: false, reason: 'too_large' });
      else out.push(c);
    });
    child.stdin.on('error', () => undefined); // the child may exit before reading everything
    child.on('error', () => stop({ ok: false, reason: 'unreadable' }));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (verdict) return resolve(verdict);
      if (code === 0 && size > 0) return resolve({ ok: true, png: Buffer.concat(out) });
      resolve({ ok: false, reason: code === 4 ? 'too_large' : 'unreadable' });
    });
    child.stdin.end(svg);
  });
}
