// acceptInvitation holds a pool connection (its transaction with the team's advisory lock)
// while better-auth's acceptInvitation runs on *another* connection of the same pool. With as many
// concurrent acceptances as the pool has connections (20), every connection is held by a transaction
// and better-auth waits for a free one forever: the server stops answering.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { invitationIdFromMail, ownerOn, uniqueEmail } from '../helpers/accounts';
import { signUpVerified, testServer, type Browserless } from '../helpers/test-server';

const ts = testServer();
const N = 24; // more than the server's pool (20)

describe('team: concurrent acceptances', () => {
  it(`${N} invitees of one Enterprise team accepting at once all get in, and the server keeps answering`, { timeout: 120_000 }, async () => {
    const o = await ownerOn(ts, 'enterprise', 'lockowner');
    const invitees: { client: Browserless; invitationId: string }[] = [];
    for (let i = 0; i < N; i++) {
      const email = uniqueEmail(`acc${i}`);
      const sent = await o.client.trpcMutation('team.invite', { email, role: 'member' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const invitationId = await invitationIdFromMail(ts, email);
      const client = await signUpVerified(ts, { email, name: `Invitee ${i}` });
      invitees.push({ client, invitationId });
    }
    const all = Promise.all(invitees.map((x) => x.client.trpcMutation('team.acceptInvitation', { invitationId: x.invitationId }).then((r) => r.status)));
    const outcome = await Promise.race([all, new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 20_000))]);
    let sessions = '';
    if (outcome === 'stuck') {
      // What the server's connections are doing, then free them so the file can end.
      const admin = new pg.Client(ts.testDb.url);
      await admin.connect();
      const { rows } = await admin.query(
        "select state, wait_event_type, wait_event, count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = '' group by 1, 2, 3 order by n desc",
      );
      sessions = JSON.stringify(rows);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      await admin.end().catch(() => undefined);
    }
    expect(outcome, `all acceptances answered within 20 s; server sessions: ${sessions}`).toEqual(Array(N).fill(200));
  });
});
