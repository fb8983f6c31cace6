// `mailvet verify` and `mailvet probe` (also `tsx probe/cli.ts verify`, `npm run verify --`).
//   verify: addresses on stdin, one per line → one JSON line per result on stdout, as each finishes.
//   probe:  runs the daemon from PROBE_* environment variables.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { VerificationResult } from './contract';
import { depthSchema, trimAddress } from './contract';
import { daemonRcptJournal, daemonSettingsFromEnv, dnsServerProblem, probeOptionsFromEnv } from './env';
import { createVerifier, type ProbeOptions } from './index';
import { startProbeDaemon } from './daemon/server';

/** The CLI's JSON line: a subset of the contract's result, with the input verbatim. */
export function cliLine(r: VerificationResult): string {
  return JSON.stringify({
    email: r.email,
    verdict: r.verdict,
    result: r.result,
    reason: r.reason,
    catch_all: r.catch_all,
    disposable: r.disposable,
    role: r.role,
    free_provider: r.free_provider,
    score: r.score,
    mx_hosts: r.mx_hosts,
    suggestion: r.suggestion,
    ms: r.ms,
  });
}

const positiveInt = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive integer');
  return n;
};
const collect = (v: string, prev: string[]): string[] => [...prev, ...v.split(',').map((s) => s.trim()).filter(Boolean)];
/** --dns-server: each entry an IP address (:port), named in the error instead of the resolver's bare "Invalid IP address". */
const collectDnsServers = (v: string, prev: string[]): string[] => {
  const entries = collect(v, []);
  for (const e of entries) {
    const problem = dnsServerProblem(e);
    if (problem) throw new InvalidArgumentError(problem);
  }
  return [...prev, ...entries];
};
const portNumber = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be a port number from 1 to 65535');
  return n;
};
const httpUrl = (v: string): string => {
  if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol)) throw new InvalidArgumentError('must be an http:// or https:// URL (e.g. https://rdap.org)');
  return v;
};

export interface VerifyFlags {
  concurrency?: number;
  timeoutMs?: number;
  helo?: string;
  mailFrom?: string;
  allowPrivateNetworks?: boolean;
  dnsServer: string[];
  smtpPort?: number;
  depth: string;
  mode: string;
  rdapUrl?: string;
  dnsblZone: string[];
}

export function optionsFromFlags(flags: VerifyFlags, env: NodeJS.ProcessEnv): ProbeOptions {
  const o: ProbeOptions = { ...probeOptionsFromEnv(env) };
  if (flags.concurrency) o.globalConcurrency = flags.concurrency;
  if (flags.timeoutMs) {
    o.connectTimeoutMs = flags.timeoutMs;
    o.bannerTimeoutMs = flags.timeoutMs;
    o.replyTimeoutMs = flags.timeoutMs;
    o.dnsTimeoutMs = Math.min(flags.timeoutMs, 3000);
  }
  if (flags.helo) o.heloName = flags.helo;
  if (flags.mailFrom) o.mailFrom = flags.mailFrom;
  if (flags.allowPrivateNetworks) {
    if (env.NODE_ENV === 'production') throw new Error('--allow-private-networks is refused in production (NODE_ENV=production): it lets the probe reach private and loopback addresses');
    o.allowPrivateNetworks = true;
  }
  if (flags.dnsServer.length > 0) o.dnsServers = flags.dnsServer;
  if (flags.smtpPort) o.smtpPort = flags.smtpPort;
  if (flags.rdapUrl) o.rdapBaseUrl = flags.rdapUrl;
  if (flags.dnsblZone.length > 0) o.dnsblZones = flags.dnsblZone;
  return o;
}

function writeOut(line: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(`${line}\n`)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

/**
 * One line of stdin as an address: without its CR (CRLF input), and on the first line without a
 * UTF-8 byte order mark (what Windows editors put first; a CSV upload drops it too).
 */
export function stdinLine(raw: string, first: boolean): string {
  const line = raw.replace(/\r$/, '');
  return first && line.startsWith('\uFEFF') ? line.slice(1) : line;
}

/**
 * Ends the process quietly when whoever reads stdout has gone (`mailvet verify … | head`): there is
 * no one left to tell, and an unhandled EPIPE would print a stack trace.
 */
export function exitWhenStdoutCloses(): void {
  if (process.stdout.listenerCount('error') > 0) return;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

/** Reads stdin in batches (up to 10,000 lines, or what arrived within 25 ms) and verifies each batch. */
export async function runVerify(flags: VerifyFlags): Promise<number> {
  return (await verifyStdin(flags)).code;
}

/** What a stdin run did: its exit code, the addresses read and the results written. */
export interface StdinRun {
  code: number;
  expected: number;
  written: number;
}

/** runVerify, also telling `onResult` of each result as it is written, and how many addresses it read. */
export async function verifyStdin(flags: VerifyFlags, onResult?: (r: VerificationResult) => void, onRead?: (addresses: number) => void): Promise<StdinRun> {
  const depth = depthSchema.parse(flags.depth);
  const mode = flags.mode === 'bulk' ? 'bulk' : 'realtime';
  const verifier = createVerifier(optionsFromFlags(flags, process.env));
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let expected = 0;
  let written = 0;
  let failed = false;
  const running: Promise<void>[] = [];
  let batch: string[] = [];
  let timer: NodeJS.Timeout | null = null;
  let output = Promise.resolve();

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (batch.length === 0) return;
    const emails = batch;
    batch = [];
    running.push(
      (async () => {
        try {
          for await (const r of verifier.verifyBatch(emails, { depth, mode })) {
            written++;
            onResult?.(r);
            output = output.then(() => writeOut(cliLine(r)));
          }
        } catch (err) {
          failed = true;
          process.stderr.write(`mailvet verify: ${(err as Error).message}\n`);
        }
      })(),
    );
  };

  for await (const raw of rl) {
    const line = stdinLine(raw, expected === 0);
    if (trimAddress(line) === '') continue; // blank is SP/HTAB only: a line of NBSP or ZWSP is an address to judge
    expected++;
    onRead?.(expected);
    batch.push(line);
    if (batch.length >= 10_000) flush();
    else if (!timer) timer = setTimeout(flush, 25);
  }
  flush();
  await Promise.all(running);
  await output;
  await verifier.close();
  return { code: !failed && written === expected ? 0 : 1, expected, written };
}

async function runDaemon(): Promise<number> {
  const settings = daemonSettingsFromEnv(process.env);
  const probe = probeOptionsFromEnv(process.env);
  const budget = probe.mxRcptBudget;
  if (budget) budget.journal = daemonRcptJournal(process.env, settings.port);
  const daemon = await startProbeDaemon({ ...settings, probe });
  if (budget) process.stderr.write(`mailvet probe: fleet RCPT budget, this node's share: at most ${budget.rcpts} RCPTs per MX IP per ${budget.windowMs ?? 60_000} ms; ${budget.journal ? `grants journaled in ${budget.journal}` : 'no journal: a restart within a window forgets what was sent'}\n`);
  process.stderr.write(`mailvet probe listening on ${daemon.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`mailvet probe: stopping; verify streams under way may finish for ${settings.drainMs} ms\n`);
      void daemon.close({ drainMs: settings.drainMs }).then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

/**
 * Runs `verify …` or `probe` with the arguments after the program name, e.g.
 * runProbeCli(['verify', '--concurrency', '20']). Sets process.exitCode and returns it.
 */
export async function runProbeCli(argv: string[]): Promise<number> {
  exitWhenStdoutCloses();
  let code = 0;
  const program = new Command('mailvet').description('Mailvet verification engine').exitOverride();
  addEngineOptions(program.command('verify').description('verify addresses read from stdin (one per line); writes one JSON line per result'))
    .action(async (flags: VerifyFlags) => {
      code = await runVerify(flags);
    });
  program
    .command('probe')
    .description('run the probe daemon (PROBE_PORT, PROBE_TOKEN, PROBE_* options)')
    .action(async () => {
      code = await runDaemon();
    });
  return parseCli(program, argv, (c) => (code = c)).then(() => {
    process.exitCode = code;
    return code;
  });
}

/** The engine's flags on a `verify` command (shared with scripts/cli/verify.ts). */
export function addEngineOptions(cmd: Command): Command {
  return cmd
    .option('--concurrency <n>', 'concurrent SMTP sessions overall', positiveInt)
    .option('--timeout-ms <ms>', 'connect, banner and reply timeout', positiveInt)
    .option('--helo <name>', 'EHLO/HELO name')
    .option('--mail-from <address>', 'MAIL FROM address')
    .option('--allow-private-networks', 'allow MX addresses in private/loopback ranges (tests only)')
    .option('--dns-server <host:port>', 'DNS server (repeatable or comma-separated)', collectDnsServers, [])
    .option('--smtp-port <port>', 'SMTP port', portNumber)
    .addOption(new Option('--depth <depth>', 'how far to check').choices(['syntax', 'mx', 'smtp']).default('smtp'))
    .addOption(new Option('--mode <mode>', 'greylisting deadline').choices(['realtime', 'bulk']).default('realtime'))
    .option('--rdap-url <url>', 'RDAP base URL for domain age', httpUrl)
    .option('--dnsbl-zone <zone>', 'DNSBL zone (repeatable)', collect, []);
}

/** Parses and runs a commander program; errors (bad flags, --help) become an exit code via `setCode`. */
export async function parseCli(program: Command, argv: string[], setCode: (code: number) => void): Promise<void> {
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    const e = err as { code?: string; exitCode?: number; message?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') setCode(0);
    else if (typeof e.exitCode === 'number') setCode(e.exitCode || 1);
    else {
      process.stderr.write(`mailvet: ${e.message ?? String(err)}\n`);
      setCode(1);
    }
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) await runProbeCli(process.argv.slice(2));
