#!/usr/bin/env node
// The `mailvet` bin: runs scripts/mailvet.ts through tsx, on the project's Node 22 when the
// `node` package is installed (npm puts it first on PATH for npm scripts, not for bins).
//
// Where the running Node can, the process becomes that command (process.execve: same pid, no
// wrapper), so a signal sent to the bin's pid (a process manager's SIGTERM, `kill $!`) reaches the
// command itself. A wrapper waiting on a child died of SIGTERM and left the child running: a
// `mailvet probe` orphan that kept its port.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const localNode = path.join(root, 'node_modules', '.bin', 'node');
const node = fs.existsSync(localNode) ? fs.realpathSync(localNode) : process.execPath;
// tsx resolved from this package, not from the caller's working directory.
const args = ['--import', import.meta.resolve('tsx'), path.join(root, 'scripts', 'mailvet.ts'), ...process.argv.slice(2)];
if (typeof process.execve === 'function') {
  process.execve(node, [node, ...args], process.env);
}
// An older Node (before 22.15) has no execve: a child it waits on, as before.
const tsxCli = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const result = spawnSync(node, [tsxCli, path.join(root, 'scripts', 'mailvet.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
