// Invitations go through better-auth, which draws on the server's one connection pool: an invite
// must never hold a connection of that pool while better-auth works.
import { describe, expect, it } from 'vitest';
import { ownerOn, uniqueEmail } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();

describe('team invitations under load', () => {
  it('answers more concurrent invites than the pool has connections, and the server keeps answering', { timeout: 60_000 }, async () => {
    const o = await ownerOn(ts, 'enterprise', 'pool-owner');
    // 30 at once (the pool has 20): an admin's script, or one batch of the dashboard's tRPC link.
    const invites = Promise.all(Array.from({ length: 30 }, () => o.client.trpcMutation('team.invite', { email: uniqueEmail('pool') })));
    const outcome = await Promise.race([invites.then((r) => r.map((x) => x.status)), new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))]);
    expect(outcome).not.toBe('hung');
    expect(outcome).toEqual(Array.from({ length: 30 }, () => 200));
    expect((await o.client.trpcQuery('team.seats')).body.result.data).toMatchObject({ invitations: 30 });
  });
});
