// A mail world in its own process, for benchmarks that must tell the world's CPU from the code under
// test (bench:fleet): the parent gets the addresses, ports and ground truth at once and the counters
// on request, over an IPC channel with structured-clone serialization (Maps included). The child is
// this same file run as a script.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexDomains, startMailWorld, type MailWorld, type MailWorldOptions } from './index';
import type { DomainSpec, Truth, WorldCounters } from './types';
import { warmUpWorld } from './warm-up';

type Request = { id: number; op: 'start'; options: MailWorldOptions; warmUp: boolean } | { id: number; op: 'counters' | 'reset' | 'stop' };
type Reply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: string };

interface Started {
  dnsServer: string;
  smtpPort: number;
  rdapUrl: string;
  env: Record<string, string>;
}

export interface MailWorldProcess {
  /** The child's process id (its CPU time is in /proc/<pid>/stat). */
  pid: number;
  dnsServer: string;
  smtpPort: number;
  rdapUrl: string;
  domains: DomainSpec[];
  truth: Map<string, Truth>;
  emails: string[];
  probeEnv(): Record<string, string>;
  /** The world's counters as they are now. */
  counters(): Promise<WorldCounters>;
  /** resetCounters() and resetGreylist() in the child; resolves once done. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a mail world in a child process (`node [nodeArgs] --import tsx`); resolves once it serves.
 * `warmUp` (default true): before that, the child runs a bounded warm-up against itself (warm-up.ts)
 * so the first measured run does not pay for compiling the world's code, then zeroes its counters.
 */
export async function startMailWorldProcess(o: MailWorldOptions & { domains: DomainSpec[]; nodeArgs?: string[]; warmUp?: boolean }): Promise<MailWorldProcess> {
  const { nodeArgs = [], warmUp = true, ...options } = o;
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: [...nodeArgs, '--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let next = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: Reply) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w?.resolve(m.value);
    else w?.reject(new Error(`mail world process: ${m.error}`));
  });
  child.once('exit', (code, signal) => {
    for (const w of waiting.values()) w.reject(new Error(`mail world process exited (${code ?? signal})`));
    waiting.clear();
  });
  const ask = <T>(req: Omit<Request, 'id'> & { options?: MailWorldOptions; warmUp?: boolean }): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ ...req, id });
    });
  const { truth, emails } = indexDomains(o.domains);
  let started: Started;
  try {
    started = await ask<Started>({ op: 'start', options, warmUp });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    pid: child.pid ?? 0,
    dnsServer: started.dnsServer,
    smtpPort: started.smtpPort,
    rdapUrl: started.rdapUrl,
    domains: o.domains,
    truth,
    emails,
    probeEnv: () => ({ ...started.env }),
    counters: () => ask<WorldCounters>({ op: 'counters' }),
    reset: () => ask<void>({ op: 'reset' }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await ask<void>({ op: 'stop' }).catch(() => undefined);
      await exited;
    },
  };
}

/** The child: serves one world and answers the parent's requests. */
function serveChild(): void {
  let world: MailWorld | null = null;
  const answer = (m: Reply): void => void process.send?.(m);
  process.on('message', (raw: unknown) => {
    const req = raw as Request;
    const run = async (): Promise<unknown> => {
      switch (req.op) {
        case 'start': {
          world = await startMailWorld(req.options);
          if (req.warmUp) await warmUpWorld(world);
          return { dnsServer: world.dnsServer, smtpPort: world.smtpPort, rdapUrl: world.rdapUrl, env: world.probeEnv() } satisfies Started;
        }
        case 'counters':
          return world?.counters;
        case 'reset':
          world?.resetCounters();
          world?.resetGreylist();
          return undefined;
        case 'stop':
          await world?.stop();
          setImmediate(() => process.exit(0));
          return undefined;
      }
    };
    run().then(
      (value) => answer({ id: req.id, ok: true, value }),
      (err: unknown) => answer({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  process.once('disconnect', () => void (world?.stop() ?? Promise.resolve()).finally(() => process.exit(0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.send) serveChild();
