import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/app-router';

type Outputs = inferRouterOutputs<AppRouter>;

/** Spec section 3, Auto-revalidation schedule, as schedules.list returns it. */
export type ScheduleItem = Outputs['schedules']['list'][number];

/** What changed between a schedule's last two runs (schedules.changes). */
export type ScheduleChanges = Outputs['schedules']['changes'];
