// The Auto Revalidation screen's calls to the `schedules` router (server/features/schedules).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** `pollEveryMs`: reload this often while a schedule is active (the live job stream being down). */
export function useSchedules({ pollEveryMs = false }: { pollEveryMs?: number | false } = {}) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.schedules.list.queryOptions(),
    refetchInterval: (query) => (pollEveryMs !== false && query.state.data?.some((s) => s.is_active) ? pollEveryMs : false),
  });
}

/** What changed since the previous run; only asked for once a schedule has run twice. */
export function useScheduleChanges(scheduleId: string, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.schedules.changes.queryOptions({ scheduleId }), enabled, retry: 1 });
}

export function useScheduleMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.schedules.list.queryKey() });
  return {
    create: useMutation(trpc.schedules.create.mutationOptions({ onSuccess: invalidate })),
    setActive: useMutation(trpc.schedules.setActive.mutationOptions({ onSuccess: invalidate })),
    remove: useMutation(trpc.schedules.delete.mutationOptions({ onSuccess: invalidate })),
  };
}
