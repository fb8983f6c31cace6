#!/usr/bin/env node
// The `mailvet` bin: runs scripts/mailvet.ts through tsx, on the project's Node 22 when the
// `node` package is installed (npm puts it first on PATH for npm scripts, not for bins).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const localNode = path.join(root, 'node_modules', '.bin', 'node');
const node = fs.existsSync(localNode) ? localNode : process.execPath;
const tsxCli = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const result = spawnSync(node, [tsxCli, path.join(root, 'scripts', 'mailvet.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
