// webhooks: the account's signing secret (rotate), its webhook endpoints and the delivery log with
// replay. All of it is webhook settings: owner and admin only (contracts/permissions.ts). Endpoints
// are the Enterprise plan's account webhooks; replay follows the job-webhook gate (Pro and up), and
// an endpoint's delivery the endpoints' (Enterprise).
import { z } from 'zod';
import {
  createWebhookEndpointInput,
  deliveryIdInput,
  listDeliveriesInput,
  rotatedSecretSchema,
  updateWebhookEndpointInput,
  webhookAttemptSchema,
  webhookDeliverySchema,
  webhookEndpointIdInput,
  webhookEndpointSchema,
} from '../../contracts/webhooks';
import { router } from '../../trpc/init';
import { accountProcedure, requirePermission, requirePlan, withinAccountRate } from '../../trpc/procedures';
import { rotateSigningSecret } from './webhook-secret';
import { createEndpoint, deleteEndpoint, getDelivery, listDeliveries, listEndpoints, replayDelivery, updateEndpoint } from './webhooks.service';

const managers = accountProcedure.use(requirePermission('webhooks.manage'));

export const webhooksRouter = router({
  /** A new random signing secret, shown in this answer only; the old one stops signing at once. */
  rotateSecret: managers
    .use(requirePlan('apiKeys'))
    .output(rotatedSecretSchema)
    .mutation(({ ctx }) => rotateSigningSecret(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id })),

  endpoints: managers.output(z.array(webhookEndpointSchema)).query(({ ctx }) => listEndpoints(ctx.deps.db, ctx.accountId)),

  createEndpoint: managers
    .use(requirePlan('integrations'))
    .input(createWebhookEndpointInput)
    .output(webhookEndpointSchema)
    .mutation(({ ctx, input }) => createEndpoint(ctx.deps, { accountId: ctx.accountId, userId: ctx.user.id, url: input.url, events: input.events })),

  updateEndpoint: managers
    .use(requirePlan('integrations'))
    .input(updateWebhookEndpointInput)
    .output(webhookEndpointSchema)
    .mutation(({ ctx, input }) => updateEndpoint(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, id: input.id, events: input.events })),

  /** No plan gate: a downgraded account can still remove what it set up. */
  deleteEndpoint: managers
    .input(webhookEndpointIdInput)
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => deleteEndpoint(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, id: input.id })),

  deliveries: managers
    .input(listDeliveriesInput)
    .output(z.object({ items: z.array(webhookDeliverySchema), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listDeliveries(ctx.deps.db, ctx.accountId, input)),

  delivery: managers
    .input(deliveryIdInput)
    .output(webhookDeliverySchema.extend({ body: z.string(), attempt_log: z.array(webhookAttemptSchema) }))
    .query(({ ctx, input }) => getDelivery(ctx.deps.db, ctx.accountId, input.id)),

  /** Sends a logged delivery's exact body again as a new delivery (logged on its own). */
  replay: managers
    .use(requirePlan('webhooks'))
    .use(withinAccountRate)
    .input(deliveryIdInput)
    .output(webhookDeliverySchema)
    .mutation(({ ctx, input }) => replayDelivery(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id, plan: ctx.plan, id: input.id })),
});
