import { useQuery } from '@tanstack/react-query';
import { planAllows, planByType, type PlanGate, type PlanType } from '../../../server/contracts/plans';
import { useTRPC } from '../../lib/trpc';

/**
 * The signed-in account's plan (trpc.account.me) and whether it passes a gate. The gate table is
 * server/contracts/plans.ts, the same one the server enforces, so the UI can never promise more.
 */
export function usePlanGate(gate: PlanGate) {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions());
  const plan: PlanType | undefined = me.data?.plan;
  return {
    isLoading: me.isPending,
    isError: me.isError,
    error: me.error,
    plan,
    planName: plan ? planByType(plan).name : undefined,
    allowed: plan ? planAllows(plan, gate) : false,
    me: me.data,
    refetch: () => void me.refetch(),
  };
}
