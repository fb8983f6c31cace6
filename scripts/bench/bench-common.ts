// What the mail-world benches share: the options every one of them takes (the simulated round trip,
// a time limit, machine-readable output) and the hard stop that bounds a run.

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
