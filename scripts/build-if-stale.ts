// Builds the SPA (vite build) unless dist/ is newer than every source file that goes into it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const INPUTS = ['src', 'server/contracts', 'probe/contract.ts', 'vite.config.ts', 'package-lock.json'];

function newestMtime(p: string): number {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

export function buildIfStale(): boolean {
  const built = path.join(root, 'dist', 'index.html');
  const sources = Math.max(...INPUTS.map((i) => path.join(root, i)).filter((p) => fs.existsSync(p)).map(newestMtime));
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return false;
  console.log('Building the web app…');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  return true;
}
