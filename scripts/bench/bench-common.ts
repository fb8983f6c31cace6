// What the benches share: the options every mail-world bench takes (the simulated round trip, a time
// limit, machine-readable output), the hard stop that bounds a run, and the production runtime flag.

/** The young-generation size the Dockerfile gives every process (its NODE_OPTIONS): benches run processes the same way. */
export const PRODUCTION_NODE_FLAG = '--max-semi-space-size=32';

/** The public URL production requires (server/env.ts): a reserved name, never reached by a bench. */
export const BENCH_BASE_URL = 'https://mailvet.bench.invalid';

/** parseArgs options common to bench:probe and bench:fleet (spread into each bench's own). */
export const mailWorldBenchOptions = {
  'reply-delay-ms': { type: 'string', default: '20' },
  'time-limit-s': { type: 'string', default: '600' },
  json: { type: 'boolean', default: false },
} as const;

/**
 * Ends the process (exit code 2) if the bench is still running `afterMs` from now, after `onStop`
 * (e.g. killing child processes). Returns a function that disarms it.
 */
export function armHardStop(afterMs: number, limitMs: number, onStop: () => void = () => undefined): () => void {
  const timer = setTimeout(() => {
    console.log(`\nHARD STOP: time limit of ${limitMs / 1000} s reached; partial output above.`);
    onStop();
    process.exit(2);
  }, afterMs);
  timer.unref();
  return () => clearTimeout(timer);
}
