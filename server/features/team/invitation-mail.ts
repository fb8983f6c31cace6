// The team invitation mail, sent by inviteMember (team-invitations.ts) once the invitation is kept:
// after the transaction that decided it commits, never for one refused at the last check (the cap
// on waiting invitations filled meanwhile, the inviter removed meanwhile). better-auth sends none
// (auth.ts gives its organization plugin no sendInvitationEmail).
import type { Db } from '../../../db/client';
import { linkMail, type Mailer } from '../../mail/mailer';
import { invitationBrand } from '../branding/branding.service';
import { formatUtcDateTime } from '../../lib/dates';
import { mailedInvitationRef } from './invitation-ref';
import { INVITATION_EXPIRES_HOURS } from './team-seats';

export interface InvitationMailDeps {
  db: Db;
  mailer: Mailer;
  baseURL: string;
  /** The server secret the link's proof is made with (invitation-ref.ts). */
  secret: string;
}



/** Mails a pending invitation to its address; false when it is no longer pending (nothing sent). */
export async function sendInvitationMail(d: InvitationMailDeps, invitationId: string): Promise<boolean> {
  const inv = await d.db
    .selectFrom('invitation')
    .innerJoin('organization', 'organization.id', 'invitation.organizationId')
    .innerJoin('user as inviter', 'inviter.id', 'invitation.inviterId')
    .select(['invitation.id', 'invitation.email', 'invitation.role', 'invitation.organizationId', 'invitation.expiresAt', 'organization.name as accountName', 'inviter.name as inviterName', 'inviter.email as inviterEmail'])
    .where('invitation.id', '=', invitationId)
    .where('invitation.status', '=', 'pending')
    .executeTakeFirst();
  if (!inv) return false;
  // White-label: the account's product name (Enterprise), sender name and verified domain.
  const brand = await invitationBrand(d.db, inv.organizationId);
  await d.mailer.send({
    ...linkMail({
      to: inv.email,
      subject: `You're invited to join ${inv.accountName} on ${brand.productName}`,
      intro: `${inv.inviterName || inv.inviterEmail} invited you to join ${inv.accountName} as ${inv.role ?? 'member'}.`,
      cta: 'Accept the invitation',
      // The id with its proof (team-invitations.ts): the bare id, which the inviter sees, accepts nothing.
      // The one link on the verified domain: its proof only lets the invitee join this account
      // (the tenant's own), no token that signs anyone in or acts on the user (invitation-ref.ts).
      url: `${brand.origin ?? d.baseURL}/auth?invitation=${encodeURIComponent(mailedInvitationRef(d.secret, inv.id))}`,
      // An invitation older than this is refused ("has expired"): the invitee learns it here, not then.
      outro: `This invitation expires in ${INVITATION_EXPIRES_HOURS} hours (${formatUtcDateTime(new Date(inv.expiresAt))}); after that, ask whoever invited you to send a new one. If you weren't expecting this invitation, you can ignore this email.`,
      signature: brand.productName,
      brand: { color: brand.color, logoUrl: brand.logoUrl ? `${d.baseURL}${brand.logoUrl}` : null },
    }),
    fromName: brand.senderName,
  });
  return true;
}
