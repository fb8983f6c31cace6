// The Idempotency-Key adapter stores an answer before it sends it: a server that stops right after
// the client got its answer must not leave the key "still being processed" (the retry is replayed).
import type { Request, Response } from 'express';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDeps } from '../deps';
import { idempotencyKeys } from './idempotency';

const stored: Array<{ status: number; body: string }> = [];
let finishStoring: () => void = () => {};

vi.mock('../auth/api-key-auth', () => ({
  authenticateApiKey: () => Promise.resolve({ ok: true, principal: { accountId: 'acc', keyId: 'key', isTest: false } }),
}));
vi.mock('../features/idempotency/idempotency.service', () => ({
  requestHash: () => 'hash',
  claimIdempotencyKey: () => Promise.resolve({ kind: 'new', claimedAt: new Date(0) }),
  settleIdempotencyKey: (_db: unknown, o: { status: number; body: string }) =>
    new Promise<void>((resolve) => {
      finishStoring = () => {
        stored.push({ status: o.status, body: o.body });
        resolve();
      };
    }),
}));

function fakeExchange() {
  const sent: string[] = [];
  const headers = new Map<string, string>();
  const res = {
    statusCode: 200,
    write: (chunk: string) => (sent.push(chunk), true),
    end: (chunk?: string) => {
      if (chunk !== undefined) sent.push(chunk);
      return res;
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
  };
  const req = { method: 'POST', path: '/bulk', body: { emails: ['a@example.com'] }, headers: { 'idempotency-key': 'k-1', authorization: 'Bearer mv_live_x' } };
  return { req: req as unknown as Request, res: res as unknown as Response, sent };
}

beforeEach(() => {
  stored.length = 0;
});

describe('idempotencyKeys', () => {
  it('sends the answer only once it is stored, so the client never holds an answer a retry could not replay', async () => {
    const { req, res, sent } = fakeExchange();
    const next = vi.fn();
    await idempotencyKeys({ db: {} } as AppDeps)(req, res, next);
    expect(next).toHaveBeenCalledOnce();
    res.statusCode = 201;
    res.setHeader('Content-Type', 'application/json');
    res.end('{"job_id":"j1"}');
    // Storing has not finished: nothing has left for the client yet.
    expect(sent).toEqual([]);
    finishStoring();
    await vi.waitFor(() => expect(sent).toEqual(['{"job_id":"j1"}']));
    expect(stored).toEqual([{ status: 201, body: '{"job_id":"j1"}' }]);
  });
});
