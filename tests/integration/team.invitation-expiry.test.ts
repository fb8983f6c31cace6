// An invitation can be accepted for INVITATION_EXPIRES_HOURS (48) hours, then it is refused ("This
// invitation has expired"). Its mail and the sign-in page it leads to now say so, and until when:
// before, the invitee learnt of the limit only when the link stopped working.
import { describe, expect, it } from 'vitest';
import { bareInvitationId, invitationIdFromMail, ownerOn, uniqueEmail } from '../helpers/accounts';
import { Browserless, testServer } from '../helpers/test-server';
import { INVITATION_EXPIRES_HOURS } from '../../server/features/team/team-seats';

const ts = testServer();

describe('an invitation’s expiry', () => {
  it('is 48 hours, said in the mail (with the moment, in UTC) and on the invitation’s sign-in page', async () => {
    expect(INVITATION_EXPIRES_HOURS).toBe(48);
    const o = await ownerOn(ts, 'pro', 'expiry');
    const target = uniqueEmail('expiring');
    expect((await o.client.trpcMutation('team.invite', { email: target })).status).toBe(200);
    const ref = await invitationIdFromMail(ts, target);
    const inv = await ts.testDb.db.selectFrom('invitation').select(['createdAt', 'expiresAt']).where('id', '=', bareInvitationId(ref)).executeTakeFirstOrThrow();
    const expiresAt = new Date(inv.expiresAt);
    expect(Math.round((expiresAt.getTime() - new Date(inv.createdAt).getTime()) / 3_600_000)).toBe(48);

    const mail = await ts.testDb.db.selectFrom('dev_outbox').select(['text', 'html']).where('to', '=', target).executeTakeFirstOrThrow();
    const day = expiresAt.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    const time = `${String(expiresAt.getUTCHours()).padStart(2, '0')}:${String(expiresAt.getUTCMinutes()).padStart(2, '0')}`;
    const said = `This invitation expires in 48 hours (${day}, ${time} UTC); after that, ask whoever invited you to send a new one.`;
    expect(mail.text).toContain(said);
    expect(mail.html).toContain(said);

    const preview = await new Browserless(ts.url).trpcQuery('team.invitationPreview', { invitationId: ref });
    expect(preview.body.result.data).toMatchObject({ status: 'pending', expiresAt: expiresAt.toISOString() });
  });
});
