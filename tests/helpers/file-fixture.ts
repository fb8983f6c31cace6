// Something a whole test file shares (a server, a receiver): started in the file's beforeAll and
// stopped in its afterAll. The returned object receives the started value's properties before the
// first test runs, so a file can declare it once at the top: `const rx = fileFixture(start, stop)`.
import { afterAll, beforeAll } from 'vitest';

export function fileFixture<T extends object>(start: () => Promise<T>, stop: (started: T) => Promise<void>, timeoutMs?: number): T {
  const holder = {} as T;
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
    Object.assign(holder, started);
  }, timeoutMs);
  afterAll(async () => {
    if (started) await stop(started);
  });
  return holder;
}
