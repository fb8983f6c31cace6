// Team screen (spec sections 2, 5, 6, 7): members, pending invitations, invite, cancel, remove,
// and accepting an invitation. Tenancy comes from accountProcedure; roles from requirePermission (contracts/permissions.ts).
import { z } from 'zod';
import { router } from '../../trpc/init';
import { accountProcedure, authedProcedure, publicProcedure, requirePermission } from '../../trpc/procedures';
import { acceptInvitation, cancelInvitation, inviteMember, listPendingInvitations, previewInvitation } from './team-invitations';
import { leaveTeam, listMembers, removeMember } from './team.service';
import { teamSeats } from './team-seats';

const ENTER_EMAIL = 'Please enter an email address';

export const inviteInput = z.object({
  email: z
    .string({ error: ENTER_EMAIL })
    .trim()
    .min(1, ENTER_EMAIL)
    .max(254, 'Please enter a valid email address')
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  role: z.enum(['member', 'admin'], { error: 'Invitations can grant only the member or admin role.' }).default('member'),
});

const id = z.string().min(1).max(200);
const invitationIdInput = z.object({ invitationId: id });
const memberIdInput = z.object({ memberId: id });

const managers = requirePermission('team.manage');

export const teamRouter = router({
  /** user_roles: every member of the account with profile email and full_name, oldest first. */
  members: accountProcedure.query(({ ctx }) => listMembers(ctx.deps.db, ctx.accountId)),

  /** team_invitations: pending (neither accepted nor rejected), newest first. Owner and admin only. */
  invitations: accountProcedure.use(managers).query(({ ctx }) => listPendingInvitations(ctx.deps.db, ctx.accountId)),

  /** Seats: members, live invitations and the plan's limit (for the Invite button's upgrade dialog). */
  seats: accountProcedure.query(({ ctx }) => teamSeats(ctx.deps.db, ctx.accountId)),

  /** invite-team-member {email, role}: owner or admin, within the plan's team size. */
  invite: accountProcedure
    .use(managers)
    .input(inviteInput)
    .mutation(({ ctx, input }) =>
      inviteMember(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id, headers: ctx.headers, email: input.email, role: input.role }),
    ),

  /** Cancelling deletes the invitation. */
  cancelInvitation: accountProcedure
    .use(managers)
    .input(invitationIdInput)
    .mutation(({ ctx, input }) => cancelInvitation(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, invitationId: input.invitationId })),

  /** Deletes a member's role row; the owner's row cannot be removed. */
  removeMember: accountProcedure
    .use(managers)
    .input(memberIdInput)
    .mutation(({ ctx, input }) => removeMember(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, memberId: input.memberId })),

  /**
   * A member or admin leaves an account they belong to (any role but the owner), as a removal of
   * themselves. The account is named (the page's, or a team they hold no seat in, which the seat
   * banner offers to leave), never taken from the session, which another tab may have switched.
   */
  leave: authedProcedure.input(z.object({ accountId: id })).mutation(({ ctx, input }) => leaveTeam(ctx.deps.db, { accountId: input.accountId, userId: ctx.user.id })),

  /** What an invitation link is for (account name, address, role, state); shown on the sign-in page. */
  invitationPreview: publicProcedure.input(invitationIdInput).query(({ ctx, input }) => previewInvitation(ctx.deps.db, input.invitationId)),

  /** The invited, signed-in user (same verified address) joins the account, which becomes their active one. */
  acceptInvitation: authedProcedure
    .input(invitationIdInput)
    .mutation(({ ctx, input }) => acceptInvitation(ctx.deps, { user: ctx.user, headers: ctx.headers, invitationId: input.invitationId })),
});
