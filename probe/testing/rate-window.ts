/** The most events (by their times in ms) that fall in any interval [t, t + windowMs): what a rate budget must bound. */
export function maxInAnyWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}
