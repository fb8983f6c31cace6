// apiKeys: list (any member), create and revoke (owner and admin; create needs a plan with API
// access). Members may see which keys exist — never a key — so they know what their team uses.
import { apiKeySchema, createApiKeyInput, createdApiKeySchema, revokeApiKeyInput } from '../../contracts/api-keys';
import { router } from '../../trpc/init';
import { accountProcedure, requirePermission, requirePlan } from '../../trpc/procedures';
import { signingSecretSchema } from '../../contracts/webhooks';
import { signingSecretView } from '../webhooks/webhook-secret';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';
import { z } from 'zod';

const manageProcedure = accountProcedure.use(requirePermission('apiKeys.manage'));

export const apiKeysRouter = router({
  list: accountProcedure.output(z.array(apiKeySchema)).query(({ ctx }) => listApiKeys(ctx.deps.db, ctx.accountId)),

  create: manageProcedure
    .use(requirePlan('apiKeys'))
    .input(createApiKeyInput)
    .output(createdApiKeySchema)
    .mutation(({ ctx, input }) =>
      createApiKey(ctx.deps.db, {
        accountId: ctx.accountId,
        userId: ctx.user.id,
        plan: ctx.plan,
        name: input.name,
        scopes: input.scopes,
        test: input.test,
        ratePerSecond: input.rate_limit_per_second,
      }),
    ),

  revoke: manageProcedure
    .input(revokeApiKeyInput)
    .output(apiKeySchema)
    .mutation(({ ctx, input }) => revokeApiKey(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, id: input.id })),

  /**
   * The secret that signs this account's webhook calls (X-Mailvet-Signature): in full only in the
   * answer that created it (the first view; webhooks.rotateSecret shows each new one once), otherwise
   * just its first characters.
   */
  webhookSecret: accountProcedure
    .use(requirePermission('webhooks.manage'))
    .use(requirePlan('apiKeys'))
    .output(signingSecretSchema)
    .query(({ ctx }) => signingSecretView(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id })),
});
