// Shared set-up for the probe's scenario tests on the simulated mail internet.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import type { VerificationResult } from '../../probe/contract';
import { createVerifier, type ProbeOptions, type Verifier } from '../../probe/index';
import { startProbeDaemon, type ProbeDaemon } from '../../probe/daemon/server';
import { startMailWorld, type DomainSpec } from '../mailworld/index';
import type { MailWorld } from '../mailworld/index';

/** Verifier options for a test world: short timeouts and greylisting retries, so tests stay fast. */
export function fastProbeOptions(world: MailWorld) {
  return {
    ...world.verifierOptions(),
    dnsTimeoutMs: 400,
    connectTimeoutMs: 500,
    bannerTimeoutMs: 1200,
    // Shorter than the slow-greeting scenarios' banner delay (700 ms), longer than the tarpit's (300 ms).
    mxHeadStartMs: 400,
    replyTimeoutMs: 1200,
    greylistDeadlineMs: { realtime: 2500, bulk: 4000 },
    greylistRetryDelaysMs: [300, 300, 400, 500],
    heloName: 'probe.mailvet.test',
    mailFrom: 'verify@mailvet.test',
  };
}

/** Every address of the world verified in one bulk batch by `verifier`, by address. */
export async function verifyEach(verifier: Verifier, world: MailWorld): Promise<Map<string, VerificationResult>> {
  const results = new Map<string, VerificationResult>();
  for await (const r of verifier.verifyBatch(world.emails, { depth: 'smtp', mode: 'bulk' })) results.set(r.email, r);
  return results;
}

/** The same with a verifier made for it from `options` (the world's fast ones by default), closed after. */
export async function verifyWorld(world: MailWorld, options: ProbeOptions = fastProbeOptions(world)): Promise<Map<string, VerificationResult>> {
  const verifier = createVerifier(options);
  try {
    return await verifyEach(verifier, world);
  } finally {
    await verifier.close();
  }
}

/** One address's result, failing the test by name when it has none. */
export function resultFor(results: Map<string, VerificationResult>, email: string): VerificationResult {
  const r = results.get(email);
  if (!r) throw new Error(`no result for ${email}`);
  return r;
}

/**
 * For worlds without DNS-timeout scenarios (the fleet tests): the same options with a DNS budget a
 * loaded machine cannot overrun, so a slow answer from the world's own DNS server is never a dns_error.
 */
export function fleetProbeOptions(world: MailWorld) {
  return { ...fastProbeOptions(world), dnsTimeoutMs: 3000 };
}

/** "verdict/reason" per email, for readable diffs. */
export function outcome(results: Iterable<Pick<VerificationResult, 'email' | 'verdict' | 'reason'>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of results) out[r.email] = `${r.verdict}/${r.reason}`;
  return out;
}

export function expectedOutcome(world: MailWorld, emails: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of emails) {
    const t = world.truth.get(e);
    out[e] = t ? `${t.verdict}/${t.reason}` : 'no ground truth';
  }
  return out;
}

/** Addresses whose verdict is undeliverable although the truth is not. */
export function falseUndeliverable(world: MailWorld, results: Iterable<VerificationResult>): string[] {
  const bad: string[] = [];
  for (const r of results) {
    const t = world.truth.get(r.email);
    if (r.verdict === 'undeliverable' && t && t.verdict !== 'undeliverable') bad.push(`${r.email} (${r.reason})`);
  }
  return bad;
}

/** Waits for a spawned process to exit and returns its exit code and everything it printed. */
export function collectOutput(child: ChildProcessByStdio<null | Writable, Readable, Readable>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Runs `mailvet` (scripts/mailvet.ts) with PATH, HOME, NODE_ENV=test and `env`, `stdin` written to it
 * (null: no stdin at all); resolves when it exits with its exit code, what it printed and how long it took.
 */
export function runMailvet(args: string[], stdin: string | null, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/mailvet.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
    stdio: [stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  if (stdin !== null) child.stdin!.end(stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })));
}

/** A free port on 127.0.0.1 (nothing listens on it). */
export { closedPort as freePort } from '../../probe/testing/fake-smtp';

/**
 * For a fleet test file: a mail world of `domains` (3 ms per reply) and two real daemons on it, sending
 * from 127.0.0.2 and 127.0.0.3 with the fleet options (plus `probe`), started before the file's tests
 * and stopped after them. Read `world` and `daemons` inside the tests.
 */
export function worldWithTwoDaemons(domains: DomainSpec[], token: string, extra: { probe?: ProbeOptions; heartbeatMs?: number } = {}): { readonly world: MailWorld; readonly daemons: ProbeDaemon[] } {
  const fleet = { world: undefined as MailWorld | undefined, daemons: [] as ProbeDaemon[] };
  beforeAll(async () => {
    const world = await startMailWorld({ domains, replyDelayMs: 3 });
    fleet.world = world;
    for (const ip of ['127.0.0.2', '127.0.0.3']) {
      fleet.daemons.push(await startProbeDaemon({ port: 0, host: '127.0.0.1', token, probe: { ...fleetProbeOptions(world), sourceIps: [ip], ...extra.probe }, heartbeatMs: extra.heartbeatMs }));
    }
  });
  afterAll(async () => {
    await Promise.all(fleet.daemons.map((d) => d.close()));
    await fleet.world?.stop();
  });
  return {
    get world() {
      if (!fleet.world) throw new Error('the mail world is not started yet (read it inside a test)');
      return fleet.world;
    },
    daemons: fleet.daemons,
  };
}
