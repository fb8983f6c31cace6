// What session tests share: the parameters of one session against a server on loopback, and the
// servers a test file starts, closed after each test.
import { afterEach } from 'vitest';
import type { SessionParams } from '../smtp/session';

export function sessionParams(port: number, rcpts: string[], over: Partial<SessionParams> = {}): SessionParams {
  return {
    ip: '127.0.0.1',
    port,
    host: 'mx.f.test',
    heloName: 'probe.test',
    mailFrom: 'verify@probe.test',
    rcpts,
    startTls: false,
    connectTimeoutMs: 1500,
    bannerTimeoutMs: 1500,
    replyTimeoutMs: 1500,
    ...over,
  };
}

/** Registers an afterEach that closes what the returned `track` was given during the test. */
export function closedAfterEach(): <T extends { close(): Promise<void> }>(s: T) => T {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return (s) => (open.push(s), s);
}
