// Auto revalidation for the dashboard. Creating, switching and deleting are for the owner and
// admins (permissions.ts: schedules.manage); members see the list and its changes. Creating and
// switching on also need a plan with the gate; switching off and deleting do not (a downgraded
// account can still pause or clean up).
import { createScheduleInput, parseScheduleCsvInput, scheduleIdInput, setScheduleActiveInput } from '../../contracts/schedules';
import { router } from '../../trpc/init';
import { accountProcedure, requirePermission, requirePlan } from '../../trpc/procedures';
import { createSchedule, deleteSchedule, listSchedules, parseScheduleCsv, scheduleChanges, setScheduleActive } from './schedules.service';

const manageProcedure = accountProcedure.use(requirePermission('schedules.manage'));
const autoRevalidationProcedure = manageProcedure.use(requirePlan('autoRevalidation'));

export const schedulesRouter = router({
  /** The account's schedules, newest first, with the last run's job. */
  list: accountProcedure.query(({ ctx }) => listSchedules(ctx.deps.db, ctx.accountId)),

  create: autoRevalidationProcedure
    .input(createScheduleInput)
    .mutation(({ ctx, input }) => createSchedule(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id }, input)),

  setActive: manageProcedure
    .use(requirePlan('autoRevalidation', (input) => (input as { isActive?: unknown } | null)?.isActive !== false))
    .input(setScheduleActiveInput)
    .mutation(({ ctx, input }) => setScheduleActive(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id }, input.scheduleId, input.isActive)),

  delete: manageProcedure
    .input(scheduleIdInput)
    .mutation(({ ctx, input }) => deleteSchedule(ctx.deps.db, { accountId: ctx.accountId, userId: ctx.user.id }, input.scheduleId)),

  /** What changed since the previous run: addresses that turned invalid (and ones that recovered). */
  changes: accountProcedure.input(scheduleIdInput).query(({ ctx, input }) => scheduleChanges(ctx.deps.db, ctx.accountId, input.scheduleId)),

  /** The dialog's CSV load: {emails, count, message: 'Found N email addresses'} or section 5's errors. */
  parseCsv: accountProcedure
    .input(parseScheduleCsvInput)
    .mutation(({ input }) => parseScheduleCsv(input.filename, input.contentBase64 !== undefined ? Buffer.from(input.contentBase64, 'base64') : (input.content ?? ''))),
});
