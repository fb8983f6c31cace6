// Probe daemons as real processes (`mailvet probe`), one per source address, for fleet tests and
// bench:fleet: each can be SIGKILLed like a node that vanishes.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ProbeNode {
  url: string;
  sourceIp: string;
  child: ChildProcess;
  /** SIGKILL: the node vanishes with whatever it was doing. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const exited = (c: ChildProcess): Promise<void> => new Promise((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));

/** Starts `mailvet probe` with PROBE_* from `env` and its own source address, HELO and MAIL FROM; resolves once it listens. */
export async function spawnProbeNode(o: { sourceIp: string; token: string; env: Record<string, string>; startTimeoutMs?: number }): Promise<ProbeNode> {
  const port = await freePort();
  const helo = `probe-${o.sourceIp.replaceAll('.', '-')}.mailvet.test`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), 'probe'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      PROBE_HOST: '127.0.0.1',
      PROBE_PORT: String(port),
      PROBE_TOKEN: o.token,
      PROBE_SOURCE_IP: o.sourceIp,
      PROBE_HELO: helo,
      PROBE_MAIL_FROM: `verify@${helo}`,
      ...o.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`probe node ${o.sourceIp} did not start within ${o.startTimeoutMs ?? 30_000} ms: ${stderr}`)), o.startTimeoutMs ?? 30_000);
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
      if (stderr.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`probe node ${o.sourceIp} exited with ${code}: ${stderr}`));
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `http://127.0.0.1:${port}`,
    sourceIp: o.sourceIp,
    child,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child);
    },
  };
}
