// `npm start` run for real (scripts/start.ts: startLaptop + stopOnSignals in a child process):
// "Ctrl+C stops everything, Postgres included" must hold after the previous run was killed with -9
// or had its terminal closed. The embedded Postgres such a run leaves behind was adopted by the next
// `npm start` as another process's, so its Ctrl+C left Postgres running for ever, holding the port.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runningPort } from '../../db/embedded';
import { startError } from '../../scripts/start';

const dataDir = path.resolve('.data/test', `npm-start-orphan-${process.pid}-${Date.now()}`);
const pgDir = path.join(dataDir, 'pg');
const children: ChildProcess[] = [];

const postmasterPid = () => Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const script = "const m = await import('./scripts/start.ts'); const l = await m.startLaptop(process.env); m.stopOnSignals(l); console.log('READY ' + l.url);";

/** `npm start` without the SPA build: the same startLaptop and signal handling as scripts/start.ts main(). */
function startApp(o: { underShell?: boolean } = {}): { child: ChildProcess; ready: Promise<string>; exited: Promise<number | null> } {
  const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
  // npm runs a script under `sh -c`; `; true` keeps the shell from exec-ing node (as npm's shell did).
  const [cmd, ...args] = o.underShell ? ['sh', '-c', `${node.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}; true`] : node;
  const child = spawn(cmd!, args, {
    cwd: path.resolve('.'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(ok(), what).toBe(true);
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (runningPort(pgDir)) {
    process.kill(postmasterPid(), 'SIGINT');
    for (let i = 0; i < 200 && runningPort(pgDir); i++) await new Promise((r) => setTimeout(r, 50));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start after a run that was killed', () => {
  it('takes over the Postgres a kill -9 left running, and Ctrl+C then stops it', { timeout: 180_000 }, async () => {
    const first = startApp();
    const url1 = await first.ready;
    expect((await fetch(`${url1}/healthz`)).status).toBe(200);
    const orphan = postmasterPid();
    first.child.kill('SIGKILL');
    await first.exited;
    expect(runningPort(pgDir), 'the killed run left its Postgres running').not.toBeNull();

    const second = startApp();
    const url2 = await second.ready;
    expect((await fetch(`${url2}/healthz`)).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    await until('Ctrl+C stopped the Postgres the killed run had left', () => runningPort(pgDir) === null && !alive(orphan));
  });

  it('stops Postgres when its terminal is closed (SIGHUP), and the next start finds a clean cluster', { timeout: 180_000 }, async () => {
    const run = startApp();
    await run.ready;
    const pg = postmasterPid();
    run.child.kill('SIGHUP');
    await run.exited;
    await until('closing the terminal stopped Postgres', () => runningPort(pgDir) === null && !alive(pg));

    const again = startApp();
    const url = await again.ready;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    await until('Ctrl+C stopped Postgres', () => runningPort(pgDir) === null);
  });
});

describe('npm start whose npm is stopped', () => {
  it('stops itself and Postgres when the shell npm ran it under is gone (kill <pid of npm>)', { timeout: 180_000 }, async () => {
    const run = startApp({ underShell: true });
    const url = await run.ready;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const pg = postmasterPid();
    const app = Number((await (await import('node:child_process')).execFileSync('pgrep', ['-P', String(run.child.pid)], { encoding: 'utf8' })).trim().split('\n')[0]);
    run.child.kill('SIGKILL'); // the shell, as when npm's SIGTERM ends it
    await until('the app process stopped', () => !alive(app));
    await until('Postgres stopped with it', () => runningPort(pgDir) === null && !alive(pg));
  });
});

describe('npm start on a taken port', () => {
  it('says the port is in use, that Mailvet may already run, and how to pick another', () => {
    const err = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3000'), { code: 'EADDRINUSE', address: '127.0.0.1', port: 3000 });
    expect(startError(err)).toBe('Port 3000 is already in use on 127.0.0.1: is Mailvet (npm start) already running? Stop it, or start on another port: PORT=3001 npm start');
  });
});
