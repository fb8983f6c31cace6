// Live job updates (jobs.onChange, server-sent events) are bounded per user: the SPA keeps one
// stream per browser (src/features/jobs/job-stream.ts), but a script with one session could hold
// thousands, each a socket, a listener and a membership query per job event of the account (a
// bulk job's progress updates then fanned out into thousands of queries on the shared pool). Past
// the cap a new stream is refused with a 429 that says why (the screens poll meanwhile); closing
// one frees its place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JOB_STREAMS_PER_USER } from '../../server/features/jobs/jobs.router';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Browserless;
let other: Browserless;

beforeAll(async () => {
  ts = await startTestServer();
  owner = await signUpVerified(ts, { email: 'stream-cap@example.com' });
  other = await signUpVerified(ts, { email: 'stream-cap-other@example.com' });
});
afterAll(async () => {
  await ts?.stop();
});

const cookieOf = (c: Browserless) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** A stream's server-sent events, one block at a time ('message' for data without an event name). */
async function openStream(c: Browserless) {
  const ac = new AbortController();
  const res = await fetch(`${ts.url}/api/trpc/jobs.onChange`, { headers: { cookie: cookieOf(c), accept: 'text/event-stream' }, signal: ac.signal });
  const reader = res.body!.getReader();
  let buffered = '';
  const next = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const cut = buffered.indexOf('\n\n');
      if (cut >= 0) {
        const block = buffered.slice(0, cut);
        buffered = buffered.slice(cut + 2);
        if (!block.trim()) continue;
        return { event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message', data: /^data: (.*)$/m.exec(block)?.[1] ?? '' };
      }
      const { value, done } = await reader.read();
      if (done) return { event: 'ended', data: '' };
      buffered += Buffer.from(value).toString('utf8');
    }
  };
  return { next, close: () => ac.abort() };
}

/** A change to one of the account's jobs: every stream open for it hears it. */
async function touchAJob(accountId: string): Promise<void> {
  await ts.testDb.db.insertInto('validation_job').values({ account_id: accountId, filename: 'x.csv', source: 'api', status: 'completed', total_emails: 1, processed_emails: 1, completed_at: new Date() }).execute();
}

describe('live job streams per user', () => {
  it(`at most ${MAX_JOB_STREAMS_PER_USER} at once; the next is refused with a clear 429; a closed one frees its place; other users unaffected`, { timeout: 60_000 }, async () => {
    const accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
    const open = [];
    for (let i = 0; i < MAX_JOB_STREAMS_PER_USER; i++) {
      const s = await openStream(owner);
      expect((await s.next()).event).toBe('connected');
      open.push(s);
    }
    await touchAJob(accountId);
    for (const s of open) expect((await s.next()).event, 'each stream within the cap hears the change').toBe('message');

    const refused = await openStream(owner);
    expect((await refused.next()).event).toBe('connected');
    const error = await refused.next();
    expect(error.event).toBe('serialized-error');
    expect(JSON.parse(error.data)).toMatchObject({
      message: `You have at most ${MAX_JOB_STREAMS_PER_USER} live update connections open; close other tabs or windows (pages refresh on their own meanwhile).`,
      data: { httpStatus: 429, appCode: 'RATE_LIMITED' },
    });
    expect((await refused.next()).event).toBe('ended');

    const elsewhere = await openStream(other);
    expect((await elsewhere.next()).event).toBe('connected');
    elsewhere.close();

    // Closing one frees its place once the server sees the socket end.
    open.pop()!.close();
    let again = await openStream(owner);
    await again.next();
    let heard = false;
    for (let i = 0; i < 50 && !heard; i++) {
      await touchAJob(accountId);
      heard = (await again.next()).event === 'message';
      if (heard) break;
      again.close();
      await new Promise((r) => setTimeout(r, 100));
      again = await openStream(owner);
      await again.next();
    }
    expect(heard, 'a new stream is accepted once one of the ten has closed').toBe(true);
    for (const s of open) s.close();
    again.close();
  });
});
