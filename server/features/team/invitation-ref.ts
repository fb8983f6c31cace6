// The reference a team invitation's mail link carries, and its proof.
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An invitation as its mail names it: `<id>_<proof>`, the proof an HMAC of the id under the server
 * secret. The inviter sees the bare id (the Pending Invitations list, to cancel it) and the invitee's
 * signed-in browser accepts whatever /dashboard/team?invitation= names: with the id alone an inviter
 * could hand the invitee a link that pulled them into the team and made it their active account
 * (their uploads and checks then landing in the inviter's account). Accepting needs the proof, which
 * only the mailbox the invitation was sent to has.
 */
const PROOF_HEX = 32;
const PROOF_PATTERN = new RegExp(`^[0-9a-f]{${PROOF_HEX}}$`);

export function invitationProof(secret: string, invitationId: string): string {
  return createHmac('sha256', secret).update(`team-invitation:${invitationId}`).digest('hex').slice(0, PROOF_HEX);
}

/** The invitation reference its mail link carries. */
export function mailedInvitationRef(secret: string, invitationId: string): string {
  return `${invitationId}_${invitationProof(secret, invitationId)}`;
}

/** Splits a reference (the mailed `<id>_<proof>` or a bare id) into the id and the proof it carries. */
export function parseInvitationRef(ref: string): { id: string; proof: string | null } {
  const cut = ref.lastIndexOf('_');
  if (cut <= 0) return { id: ref, proof: null };
  return { id: ref.slice(0, cut), proof: ref.slice(cut + 1) };
}

export function proofHolds(secret: string, id: string, proof: string | null): boolean {
  // Hex only: a proof of other characters (é is two bytes) made timingSafeEqual throw, a 500.
  if (proof === null || !PROOF_PATTERN.test(proof)) return false;
  return timingSafeEqual(Buffer.from(invitationProof(secret, id)), Buffer.from(proof));
}
