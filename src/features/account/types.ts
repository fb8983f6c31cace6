import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/app-router';

type Outputs = inferRouterOutputs<AppRouter>;
export type Overview = Outputs['account']['overview'];
export type ActivityItem = Overview['recent_activity'][number];
export type Profile = Outputs['account']['profile']['get'];
