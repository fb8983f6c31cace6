// White-label settings (owner and admin manage; everyone in the account sees the brand).
import { z } from 'zod';
import { router } from '../../trpc/init';
import { accountProcedure, requirePermission } from '../../trpc/procedures';
import { brandingSettings, brandingUpdateInput, brandOf, domainSchema, setDomain, updateBranding, verifyDomain } from './branding.service';

const managers = requirePermission('webhooks.manage'); // owner/admin: account set-up (contracts/permissions.ts)

export const brandingRouter = router({
  /** The brand the dashboard shows (default Mailvet below Business). */
  current: accountProcedure.query(({ ctx }) => brandOf(ctx.deps.db, ctx.accountId)),
  settings: accountProcedure.query(({ ctx }) => brandingSettings(ctx.deps.db, { accountId: ctx.accountId, plan: ctx.plan })),
  update: accountProcedure
    .use(managers)
    .input(brandingUpdateInput)
    .mutation(({ ctx, input }) => updateBranding(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan, input })),
  setDomain: accountProcedure
    .use(managers)
    .input(z.object({ domain: domainSchema.nullable() }))
    .mutation(({ ctx, input }) => setDomain(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan, domain: input.domain })),
  verifyDomain: accountProcedure
    .use(managers)
    .mutation(({ ctx }) => verifyDomain(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan, dnsServers: ctx.deps.env.BRANDING_DNS_SERVERS })),
});
