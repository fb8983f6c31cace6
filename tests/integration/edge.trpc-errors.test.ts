// A dashboard call whose input fails the server's schema: the error message is the rule's own
// sentence (the SPA shows error.message in its toasts), not ZodError's JSON dump with its codes,
// paths and the regular expressions the server validates with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, startTestServer, type Browserless, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let owner: Browserless;

beforeAll(async () => {
  ts = await startTestServer();
  owner = await signUpVerified(ts, { email: 'edge-trpc-errors@example.com' });
  const accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  await ts.testDb.db.updateTable('account').set({ plan: 'enterprise' }).where('id', '=', accountId).execute();
});
afterAll(async () => {
  await ts?.stop();
});

describe('tRPC input validation errors', () => {
  it.each([
    ['apiKeys.create', { name: 'x'.repeat(1000) }, 'API key names can be at most 100 characters.'],
    ['branding.update', { brandColor: 'red' }, 'The brand colour must be a hex colour like #4f46e5.'],
    ['team.invite', { email: 'nope', role: 'member' }, 'Please enter a valid email address'],
  ])('%s: the message is the rule itself', async (proc, input, message) => {
    const res = await owner.trpcMutation(proc, input);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(res.body.error.data.zodIssues[0].message).toBe(message);
  });

  it('a query with several bad fields says the first; the input never echoes a pattern or zod codes', async () => {
    const res = await owner.trpcMutation('team.invite', { email: 'nope', role: 'boss' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Please enter a valid email address');
    expect(JSON.stringify(res.body.error.message)).not.toMatch(/pattern|invalid_format|\[\\n/);
    expect(res.body.error.data.zodIssues).toHaveLength(2);
  });
});
