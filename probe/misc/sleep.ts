// One abortable wait for the probe and its client.
import { abortError } from '../smtp/semaphore';

/** Waits `ms`; rejects when `signal` aborts, with its reason (an AbortError when it gave none). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  const reason = (): Error => (signal?.reason instanceof Error ? signal.reason : abortError());
  if (signal?.aborted) return Promise.reject(reason());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(reason());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
