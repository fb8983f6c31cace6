// The `mailvet` bin (scripts/mailvet.mjs) as a process manager runs it (supervisord, pm2, a shell
// script's `kill $!`): the signal goes to the bin's pid alone. The bin was a wrapper that waited on a
// child (spawnSync): SIGTERM ended the wrapper and left `mailvet probe` running as an orphan, still
// listening with its token on the port, and a restart then failed with EADDRINUSE.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded';

const root = path.resolve(import.meta.dirname, '../..');
const started: number[] = [];
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(-pid, 'SIGKILL'); // its process group: an orphaned daemon too
    } catch {
      // gone
    }
  }
});

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

describe('mailvet probe, stopped through the bin’s pid', () => {
  it('SIGTERM to the mailvet process stops the daemon: the port is free again and nothing is left running', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(root, 'scripts/mailvet.mjs'), 'probe'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PROBE_TOKEN: 'bin-signals-token', PROBE_PORT: String(port), PROBE_HOST: '127.0.0.1', PROBE_DRAIN_MS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    started.push(child.pid!);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const read = (d: Buffer) => ((out += d.toString()), out.includes('listening') && resolve());
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', () => reject(new Error(`mailvet probe exited before listening: ${out}`)));
    });
    expect(await listening(port)).toBe(true);
    child.kill('SIGTERM');
    await exited;
    let free = false;
    for (let i = 0; i < 100 && !(free = !(await listening(port))); i++) await new Promise((r) => setTimeout(r, 50));
    expect(free, 'the daemon still listens after its mailvet process was stopped').toBe(true);
  });
});
