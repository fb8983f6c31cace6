// `mailvet verify`: a self-hoster's whole list.
//   mailvet verify [engine flags]                      addresses on stdin → JSON lines on stdout
//   mailvet verify --csv in.csv [--out out.csv]        the upload's CSV rules (header or a bare list,
//                                                      delimiter, normalising, de-duplication) → the
//                                                      result download's columns plus Reason
//   … --probe-urls http://a:8025,http://b:8025         verify on a probe fleet (PROBE_TOKEN or
//                                                      --probe-token) instead of in this process
// On a TTY a progress bar with rate and ETA is drawn on stderr (nothing otherwise); at the end a
// summary by result and reason goes to stderr. Exit 0 when every address got a result, 1 when some
// could not be verified (--out then left as it was, the rows verified in <out>.partial), 2 when the
// input is refused (unreadable CSV, no email column, …), 130/143 when stopped by Ctrl+C/SIGTERM (the
// rows answered until then written whole, the summary of what was done; a second one stops at once).
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open, realpath, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { addEngineOptions, cliLine, exitWhenStdoutCloses, optionsFromFlags, parseCli, stdinLine, type VerifyFlags } from '../../probe/cli';
import { ProbeClient, probeUrl } from '../../probe/client/probe-client';
import { depthSchema, trimAddress, type VerificationResult } from '../../probe/contract';
import { createVerifier } from '../../probe/index';
import { MAX_VALUE_LENGTH } from '../../server/features/jobs/csv-cells';
import { readCsvFile } from './csv-file';
import { CLI_CSV_COLUMNS, fmt, plural, Progress, resultCsvLine, ResultTally } from './verify-report';
import { verifyStream } from './verify-stream';

interface CliFlags extends VerifyFlags {
  csv?: string;
  out?: string;
  probeUrls?: string;
  probeToken?: string;
}

/** A file error as a line for a person: its code (what a search finds) and what it means here. */
function fileError(err: unknown, writing: boolean): string {
  const code = (err as NodeJS.ErrnoException).code;
  const meaning: Record<string, string> = {
    ENOENT: writing ? 'its directory does not exist' : 'no such file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'a directory, not a file',
    ENOTDIR: 'a part of the path is a file, not a directory',
    EROFS: 'a read-only file system',
    ENOSPC: 'no space left on the device',
    ENAMETOOLONG: 'the name is too long',
  };
  if (!code) return (err as Error).message;
  return meaning[code] ? `${code} (${meaning[code]})` : code;
}

/**
 * The daemons --probe-urls names (each checked: an http(s) URL). None (`--probe-urls "$FLEET"` with
 * the variable unset) is refused: the list would otherwise be verified from this machine instead.
 */
function fleetUrls(raw: string): string[] {
  const urls = raw.split(',').map((u) => u.trim()).filter(Boolean);
  if (urls.length === 0) throw new Error('--probe-urls names no probe daemon (e.g. --probe-urls http://probe-1:8025,http://probe-2:8025)');
  return urls.map(probeUrl);
}

/** Verifies one batch of addresses, locally or on the fleet, until `signal`; close() once every batch is done. */
function verifierOf(flags: CliFlags, signal: AbortSignal): { verify(emails: string[]): AsyncIterable<VerificationResult>; close(): Promise<void> } {
  const depth = depthSchema.parse(flags.depth);
  const mode = flags.mode === 'bulk' ? 'bulk' : 'realtime';
  if (flags.probeUrls !== undefined) {
    const token = flags.probeToken ?? process.env.PROBE_TOKEN ?? '';
    if (!token) throw new Error('--probe-urls needs the fleet token: --probe-token or PROBE_TOKEN');
    const client = new ProbeClient({ urls: fleetUrls(flags.probeUrls), token });
    return { verify: (emails) => client.verify(emails, { depth, mode, signal }), close: async () => undefined };
  }
  const verifier = createVerifier(optionsFromFlags(flags, process.env));
  return { verify: (emails) => verifier.verifyBatch(emails, { depth, mode, signal }), close: () => verifier.close() };
}

/** The addresses on stdin, one a line; `stop` closes stdin (a run stopped does not wait for more lines). */
async function* stdinAddresses(stop: AbortSignal): AsyncGenerator<string> {
  const close = (): void => void process.stdin.destroy();
  stop.addEventListener('abort', close, { once: true });
  try {
    let first = true;
    for await (const raw of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      const line = stdinLine(raw, first);
      if (trimAddress(line) === '') continue;
      first = false;
      yield line;
    }
  } finally {
    stop.removeEventListener('abort', close);
  }
}

/** What Ctrl+C (SIGINT) or SIGTERM asks of a run: stop cleanly at the first, at once at the second. */
class Interruption {
  readonly stop = new AbortController();
  by: NodeJS.Signals | null = null;
  private readonly listener = (signal: NodeJS.Signals): void => this.on(signal);
  constructor(
    /** Told when the process ends at once (the second signal). */
    private readonly atOnce: (signal: NodeJS.Signals) => void,
  ) {
    process.on('SIGINT', this.listener);
    process.on('SIGTERM', this.listener);
  }
  private on(signal: NodeJS.Signals): void {
    if (this.by) {
      this.atOnce(signal);
      process.exit(exitCodeOf(signal));
    }
    this.by = signal;
    process.stderr.write(`\nmailvet verify: interrupted (${signal}); stopping after the results under way (${signal === 'SIGINT' ? 'Ctrl+C' : signal} again to stop at once)\n`);
    this.stop.abort(new Error(`interrupted (${signal})`));
  }
  dispose(): void {
    process.off('SIGINT', this.listener);
    process.off('SIGTERM', this.listener);
  }
}

const exitCodeOf = (signal: NodeJS.Signals): number => (signal === 'SIGINT' ? 130 : 143);

async function runCsv(flags: CliFlags & { csv: string }): Promise<number> {
  // The upload's rules, without its per-file cap: the CLI takes a self-hoster's whole list, read
  // from the file as it is verified (checked whole first, before any address is verified).
  let parsed: Awaited<ReturnType<typeof readCsvFile>>;
  try {
    parsed = await readCsvFile(flags.csv);
  } catch (err) {
    process.stderr.write(`mailvet verify: cannot read ${flags.csv}: ${fileError(err, false)}\n`);
    return 2;
  }
  if (!parsed.ok) {
    process.stderr.write(`mailvet verify: ${flags.csv}: ${parsed.message}\n`);
    return 2;
  }
  const { unique, rows, duplicates, skipped } = parsed.value;
  // The result file has one row per address verified: say what the upload rules left out of it.
  const leftOut = [duplicates > 0 ? plural(duplicates, 'duplicate') : null, skipped > 0 ? `${plural(skipped, 'value')} longer than ${fmt(MAX_VALUE_LENGTH)} characters` : null].filter(Boolean);
  if (leftOut.length > 0) process.stderr.write(`Read ${fmt(rows)} addresses from ${flags.csv}; left out: ${leftOut.join(', ')}\n`);
  return verifyList(() => parsed.value.addresses(), unique, flags, 'csv');
}

async function verifyList(addresses: (stop: AbortSignal) => AsyncIterable<string>, total: number | null, flags: CliFlags, output: 'csv' | 'jsonl'): Promise<number> {
  const started = Date.now();
  // Where the result goes is checked before the work, not after hours of it: the file is made now
  // (next to --out, written as results come, renamed onto it at the end). A symbolic link at --out
  // keeps pointing where it did: the result goes into the file it names.
  const target = flags.out ? await realpath(flags.out).catch(() => flags.out!) : null;
  const tmp = target ? `${target}.${randomUUID()}.tmp` : null;
  // Ctrl+C (or SIGTERM) stops the run cleanly: no further address is started, the rows answered are
  // written whole, and the summary says what was done (--out is then not written: the rows verified
  // go to <out>.partial). A second one ends the process at once, the temporary file removed.
  // Listened for before the file is made, so no signal can fall between the two.
  const interruption = new Interruption((signal) => {
    if (tmp) rmSync(tmp, { force: true });
    process.stderr.write(`\nmailvet verify: interrupted again (${signal}); stopped at once${flags.out ? `, ${flags.out} not written` : ''}\n`);
  });
  let file: FileHandle | null = null;
  try {
    if (tmp) {
      const there = await stat(target!).catch(() => null);
      // A directory at --out would refuse the rename only at the end, the whole run's results lost with it.
      if (there?.isDirectory()) {
        process.stderr.write(`mailvet verify: cannot write ${flags.out}: EISDIR (a directory; name the result file)\n`);
        return 2;
      }
      // A pipe or a device (/dev/stdout, a FIFO) would be replaced by the renamed file, not written.
      if (there && !there.isFile()) {
        process.stderr.write(`mailvet verify: cannot write ${flags.out}: not a regular file (a pipe, device or socket); leave out --out to have the result CSV on stdout\n`);
        return 2;
      }
      try {
        await writeFile(tmp, '');
        file = await open(tmp, 'w');
      } catch (err) {
        process.stderr.write(`mailvet verify: cannot write ${flags.out}: ${fileError(err, true)}\n`);
        return 2;
      }
    }
    const { code, verified, read } = await verifyInto(addresses(interruption.stop.signal), total, flags, output, started, file, interruption);
    if (code === 2 || !file || !flags.out || !tmp || !target) return code;
    try {
      await file.close();
      file = null;
      if (code === 0) await rename(tmp, target);
      else {
        // Some addresses have no result: a file with rows missing is not the result of the list, and an
        // existing --out (an earlier run's result) stays as it was. What was verified is kept next to it.
        const partial = `${flags.out}.partial`;
        if (verified > 0) await rename(tmp, partial);
        const why = interruption.by ? `interrupted with ${fmt(read - verified)} of ${fmt(read)} addresses not verified` : `${fmt(read - verified)} of ${fmt(read)} addresses could not be verified`;
        process.stderr.write(`mailvet verify: ${flags.out} not written (${why})${verified > 0 ? `; the ${plural(verified, 'row')} verified are in ${partial}` : ''}\n`);
      }
    } catch (err) {
      process.stderr.write(`mailvet verify: cannot write ${flags.out}: ${fileError(err, true)}\n`);
      return 2;
    }
    return code;
  } finally {
    interruption.dispose();
    await file?.close().catch(() => undefined);
    if (tmp) await rm(tmp, { force: true }).catch(() => undefined); // gone already when renamed onto --out, or never made
  }
}

/**
 * The result's destination: lines gathered into pieces of up to 64 KB, each piece written once the
 * lines that come at once are in (so a reader sees every row as soon as it may be written).
 */
class Output {
  private buf: string[] = [];
  private size = 0;
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;
  constructor(private readonly file: FileHandle | null) {}
  private failed: { err: unknown } | null = null;
  write(text: string): Promise<void> {
    if (this.failed) return Promise.reject(this.failed.err); // the disk is full: stop, do not verify on for nothing
    this.buf.push(text);
    this.size += text.length;
    if (this.size >= 65_536) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush().catch(() => undefined); // the failure stays in the chain: the next write or flush gets it
      });
    }
    return Promise.resolve();
  }
  flush(): Promise<void> {
    const text = this.buf.join('');
    this.buf = [];
    this.size = 0;
    if (text !== '')
      this.chain = this.chain
        .then(async () => (this.file ? void (await this.file.write(text)) : writeStdout(text)))
        .catch((err: unknown) => {
          this.failed ??= { err };
          throw err;
        });
    return this.chain;
  }
}

/** Runs the list into `file` (or stdout): the exit code, and how many of the addresses read have a result. */
async function verifyInto(addresses: AsyncIterable<string>, total: number | null, flags: CliFlags, output: 'csv' | 'jsonl', started: number, file: FileHandle | null, interruption: Interruption): Promise<{ code: number; verified: number; read: number }> {
  const progress = new Progress(total ?? 0, process.stderr.isTTY === true);
  const tally = new ResultTally();
  const stop = interruption.stop.signal;
  const verifier = verifierOf(flags, stop);
  // The CSV is written as it is verified, in input order; JSON lines as results come (each at once:
  // a reader of the stream sees every result when it is known).
  const out = new Output(file);
  const write = output === 'csv' ? (l: string) => out.write(l) : (l: string) => writeStdout(l);
  let run: { read: number; failure: Error | null };
  try {
    if (output === 'csv') await write(`${CLI_CSV_COLUMNS.join(',')}\r\n`);
    run = await verifyStream(addresses, (emails) => verifier.verify(emails), output === 'csv' ? (r) => `${resultCsvLine(r, new Date())}\r\n` : (r) => `${cliLine(r)}\n`, write, {
      ordered: output === 'csv',
      // Addresses on stdin come as they are typed or piped: each pause starts what came before it.
      lingerMs: total === null ? STDIN_LINGER_MS : undefined,
      signal: stop,
      onRead: total === null ? (read) => (progress.total = read) : undefined,
      onResult: (r) => {
        tally.add(r);
        progress.tick();
      },
    });
    await out.flush();
  } catch (err) {
    if (!file) throw err;
    process.stderr.write(`mailvet verify: cannot write ${flags.out}: ${fileError(err, true)}\n`);
    return { code: 2, verified: tally.count, read: 0 };
  } finally {
    await verifier.close();
    progress.end();
  }
  // Nothing on stdin (closed at once, an empty pipe): no list was given, which is no success.
  if (total === null && run.read === 0 && !run.failure && !interruption.by) {
    process.stderr.write('mailvet verify: no address on stdin (one address per line, or --csv FILE)\n');
    return { code: 2, verified: 0, read: 0 };
  }
  // The list's size when it is known (a CSV): a run that stops early has not read all of it.
  const listed = Math.max(total ?? 0, run.read);
  process.stderr.write(tally.summary(Date.now() - started, listed));
  if (interruption.by) {
    // The verifier's failure is the interruption's own doing: what was done is what the summary says.
    process.stderr.write(`mailvet verify: interrupted (${interruption.by}): ${fmt(tally.count)} of ${fmt(listed)} addresses verified\n`);
    return { code: exitCodeOf(interruption.by), verified: tally.count, read: listed };
  }
  if (run.failure) process.stderr.write(`mailvet verify: ${run.failure.message}\n`);
  return { code: run.failure || tally.count !== listed ? 1 : 0, verified: tally.count, read: listed };
}

/** On stdin, addresses that came before a pause this long are started without waiting for more. */
const STDIN_LINGER_MS = 25;

function writeStdout(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

/** The flags that mean something with --probe-urls (the others configure this process's engine). */
const FLEET_FLAGS = new Set(['depth', 'mode', 'csv', 'out', 'probeUrls', 'probeToken']);

/** `mailvet verify …` with the arguments after the program name. Returns the exit code. */
export async function runVerifyCli(argv: string[]): Promise<number> {
  exitWhenStdoutCloses();
  let code = 0;
  const program = new Command('mailvet').exitOverride();
  addEngineOptions(
    program
      .command('verify')
      .description('verify addresses from stdin (JSON lines out) or a CSV file (--csv; result CSV out), locally or on a probe fleet (--probe-urls)'),
  )
    .option('--csv <file>', 'read addresses from a CSV (same rules as dashboard uploads)')
    .option('--out <file>', 'write the result CSV here (default: stdout); with --csv')
    .option('--probe-urls <urls>', 'comma-separated probe daemon URLs: verify on this fleet')
    .option('--probe-token <token>', 'the fleet bearer token (default: PROBE_TOKEN)')
    .action(async (flags: CliFlags, cmd: Command) => {
      // An unset variable (--csv "$LIST") must not turn into reading stdin, or writing stdout.
      for (const [flag, value] of [['--csv', flags.csv], ['--out', flags.out]] as const) {
        if (value !== undefined && value.trim() === '') {
          process.stderr.write(`mailvet verify: ${flag} needs a file name\n`);
          code = 2;
          return;
        }
      }
      // A token for a fleet that is not named: the list would be verified from this machine instead.
      if (flags.probeToken !== undefined && flags.probeUrls === undefined) {
        process.stderr.write('mailvet verify: --probe-token needs --probe-urls (the probe daemons to verify on)\n');
        code = 2;
        return;
      }
      if (flags.out && !flags.csv) {
        process.stderr.write('mailvet verify: --out needs --csv\n');
        code = 2;
        return;
      }
      if (flags.probeUrls !== undefined) {
        try {
          fleetUrls(flags.probeUrls); // before the list is read
        } catch (err) {
          process.stderr.write(`mailvet verify: ${(err as Error).message}\n`);
          code = 2;
          return;
        }
      }
      // A fleet verifies with its nodes' own settings: this process's engine flags would do nothing.
      const local = flags.probeUrls !== undefined ? cmd.options.filter((o) => !FLEET_FLAGS.has(o.attributeName()) && cmd.getOptionValueSource(o.attributeName()) === 'cli').map((o) => o.long) : [];
      if (local.length > 0) {
        process.stderr.write(`mailvet verify: ${local.join(', ')} set this process's engine; with --probe-urls the probe nodes' own settings (PROBE_*) apply\n`);
        code = 2;
        return;
      }
      try {
        if (flags.csv) code = await runCsv({ ...flags, csv: flags.csv });
        else code = await verifyList(stdinAddresses, null, flags, 'jsonl');
      } catch (err) {
        process.stderr.write(`mailvet verify: ${(err as Error).message}\n`);
        code = 2;
      }
    });
  // A mistyped flag or value is input refused (2), not addresses left unverified (1).
  await parseCli(program, argv, (c) => (code = c === 0 ? 0 : 2));
  process.exitCode = code;
  return code;
}
