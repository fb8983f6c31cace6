import { useQueryClient } from '@tanstack/react-query';
import { Lock, Plus, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '../../../components/layouts/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ListEmpty, ListFailed, ListLoading } from '../../../components/ui/list-states';
import { UpgradeDialog } from '../../../components/ui/upgrade-dialog';
import { errorMessage, NO_ANSWER_MESSAGE } from '../../../lib/error-message';
import { useJobStream } from '../../../features/jobs/job-stream';
import { PlanLoadFailed } from '../../../features/jobs/plan-load-failed';
import { usePlanGate } from '../../../features/jobs/use-plan';
import { useScheduleMutations, useSchedules } from '../../../features/schedules/api';
import { SCHEDULE_TEXT } from '../../../features/schedules/messages';
import { NewScheduleDialog, type NewScheduleInput } from '../../../features/schedules/new-schedule-dialog';
import { ScheduleCard } from '../../../features/schedules/schedule-card';
import type { ScheduleItem } from '../../../features/schedules/types';
import { SCHEDULES_UPGRADE } from '../../../features/schedules/upgrade-offer';
import { useTRPC } from '../../../lib/trpc';
import { can } from '../../../../server/contracts/permissions';

/** How often the list reloads while the live job stream is down and a schedule is active. */
const OFFLINE_POLL_MS = 10_000;

/**
 * A schedule run is a job: refresh the list (runs, last run, changes) whenever a job changes, and
 * when the stream (re)connects (a run may have happened while it was down). While the stream is
 * not connected (a proxy that buffers or blocks server-sent events), the list is reloaded every
 * few seconds instead, so a run still shows without a reload.
 */
function useRefreshOnJobChange(): { live: boolean } {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const refresh = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.schedules.pathKey() });
    }, 500);
  };
  return useJobStream({ onStarted: refresh, onEvent: refresh });
}

/**
 * 'Error' toasts carry the server's message (it says 'User account not found' itself when there is
 * no membership); a call that got no answer from the server says so instead.
 */
function scheduleError(e: unknown) {
  console.error('Schedule call failed:', e);
  toast.error(SCHEDULE_TEXT.errorTitle, { description: errorMessage(e, NO_ANSWER_MESSAGE) });
}

export default function AutoRevalidationRoute() {
  const gate = usePlanGate('autoRevalidation');
  const { live } = useRefreshOnJobChange();
  const schedules = useSchedules({ pollEveryMs: live ? false : OFFLINE_POLL_MS });
  const { create, setActive, remove } = useScheduleMutations();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [togglingId, setTogglingId] = useState<string | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);

  useEffect(() => {
    if (schedules.isError) scheduleError(schedules.error);
  }, [schedules.isError, schedules.error]);

  function newSchedule() {
    if (gate.allowed) setDialogOpen(true);
    else setUpgradeOpen(true);
  }

  async function onCreate(input: NewScheduleInput): Promise<boolean> {
    try {
      const r = await create.mutateAsync(input);
      toast.success(SCHEDULE_TEXT.createdTitle, {
        description: `${input.name} will revalidate ${r.email_count.toLocaleString('en-US')} address${r.email_count === 1 ? '' : 'es'} ${input.frequency}.`,
      });
      return true;
    } catch (e) {
      scheduleError(e);
      return false;
    }
  }

  async function onToggle(s: ScheduleItem, active: boolean) {
    if (active && !gate.allowed) {
      setUpgradeOpen(true);
      return;
    }
    setTogglingId(s.id);
    try {
      await setActive.mutateAsync({ scheduleId: s.id, isActive: active });
      toast.success(active ? SCHEDULE_TEXT.activatedTitle : SCHEDULE_TEXT.deactivatedTitle, { description: s.name });
    } catch (e) {
      scheduleError(e);
    } finally {
      setTogglingId(null);
    }
  }

  async function onDelete(s: ScheduleItem) {
    if (!window.confirm(SCHEDULE_TEXT.confirmDelete)) return;
    setDeletingId(s.id);
    try {
      const deleted = await remove.mutateAsync({ scheduleId: s.id });
      toast.success(SCHEDULE_TEXT.deletedTitle, { description: deleted.runs_cancelled > 0 ? SCHEDULE_TEXT.deletedRunStopped(s.name) : s.name });
    } catch (e) {
      scheduleError(e);
    } finally {
      setDeletingId(null);
    }
  }

  const list = schedules.data ?? [];
  const canManage = gate.me ? can(gate.me.role, 'schedules.manage') : true;
  return (
    <>
      <PageHeader
        title="Auto Revalidation"
        description="Revalidate saved lists on a schedule and catch addresses that go bad."
        action={canManage ? { label: 'New Schedule', icon: gate.allowed || !gate.plan ? Plus : Lock, onClick: newSchedule, disabled: !gate.plan } : undefined}
        actions={
          !canManage && (
            <span className="text-sm text-slate-500" data-testid="schedules-read-only">
              Only the account owner or an admin can change schedules.
            </span>
          )
        }
      />

      {gate.isError && <PlanLoadFailed onRetry={gate.refetch} />}

      {gate.plan && !gate.allowed && (
        <div className="mb-6 flex flex-wrap items-center gap-3 rounded-xl border border-brand-100 bg-brand-50/70 px-4 py-3 text-sm text-brand-900" data-testid="upgrade-banner">
          <Lock className="size-4 shrink-0 text-brand-600" aria-hidden />
          <span className="flex-1">
            Auto revalidation is available on the Pro, Business and Enterprise plans{gate.planName ? `; you are on ${gate.planName}` : ''}.
          </span>
          <Button size="sm" variant="outline" onClick={() => setUpgradeOpen(true)}>
            Learn more
          </Button>
        </div>
      )}

      {schedules.isPending ? (
        <Card>
          <ListLoading />
        </Card>
      ) : schedules.isError && !schedules.data ? (
        <Card>
          <ListFailed message={errorMessage(schedules.error, 'Could not load your schedules.')} onRetry={() => void schedules.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <Card>
          <ListEmpty
            data-testid="schedules-empty"
            icon={RefreshCw}
            tone="bg-brand-50 text-brand-600"
            title="No schedules yet"
            action={
              canManage && (
                <Button variant="outline" onClick={newSchedule}>
                  <Plus className="size-4" aria-hidden /> Create your first schedule
                </Button>
              )
            }
          >
            Save a list of addresses and Mailvet revalidates it daily, weekly or monthly, telling you which ones turned invalid.
          </ListEmpty>
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-2" aria-label="Schedules">
          {list.map((s) => (
            <ScheduleCard key={s.id} schedule={s} canManage={canManage} onToggle={(x, v) => void onToggle(x, v)} onDelete={(x) => void onDelete(x)} toggling={togglingId === s.id} deleting={deletingId === s.id} />
          ))}
        </div>
      )}

      <NewScheduleDialog open={dialogOpen} onClose={() => setDialogOpen(false)} busy={create.isPending} onCreate={onCreate} />
      <UpgradeDialog open={upgradeOpen} onClose={() => setUpgradeOpen(false)} offer={SCHEDULES_UPGRADE} planName={gate.planName} />
    </>
  );
}
