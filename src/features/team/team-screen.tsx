import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Clock, LogOut, Mail, Trash2, UserPlus, Users, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { isUnlimited, planByType } from '../../../server/contracts/plans';
import { PageHeader } from '../../components/layouts/page-header';
import { Badge, type BadgeVariant } from '../../components/ui/badge';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable, RowAction, cellClass, tableColumns, type TableColumn } from '../../components/ui/table';
import { Tabs, TabsList, TabsPanel, TabsPanels, TabsTrigger } from '../../components/ui/tabs';
import { useConfirmAction, type ConfirmActionOptions } from '../../hooks/use-confirm-action';
import { useTabParam } from '../../hooks/use-tab-param';
import { useTRPC } from '../../lib/trpc';
import { AcceptInvitationBanner } from './accept-invitation';
import { appCodeOf as appCode } from '../../../server/contracts/error-codes';
import { errorMessage } from '../../lib/error-message';
import { ROLE_LABELS, TEAM_TEXT } from './messages';
import { InviteDialog, UpgradeDialog, type InviteRole } from './team-dialogs';

type Role = keyof typeof ROLE_LABELS;

const ROLE_BADGE: Record<Role, BadgeVariant> = { owner: 'brand', admin: 'warning', member: 'neutral' };

function formatDate(value: string | Date): string {
  return new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

function RoleBadge({ role }: { role: string }) {
  const r: Role = role === 'owner' || role === 'admin' ? role : 'member';
  return <Badge variant={ROLE_BADGE[r]}>{ROLE_LABELS[r]}</Badge>;
}

/** A member or an invitation, as its confirmation needs it. */
type Person = { id: string; email: string; self?: boolean };

/**
 * A change to a member or invitation behind a confirmation: make it, say so naming the address, then
 * refresh; or log the failure and show it in an 'Error' toast (the server's message, else `failed`).
 */
function teamChange<R>(
  change: (person: Person) => Promise<R>,
  doneTitle: string,
  doneBody: (email: string, result: R) => string,
  failed: string,
  refresh: () => unknown,
): ConfirmActionOptions<Person> {
  return {
    async run(person) {
      const result = await change(person);
      toast.success(doneTitle, { description: doneBody(person.email, result) });
    },
    onError(err) {
      console.error(failed, err);
      toast.error(TEAM_TEXT.errorTitle, { description: errorMessage(err, failed) });
    },
    onDone: refresh,
  };
}

const td = cellClass('comfortable');
const INVITATION_COLUMNS: TableColumn[] = [{ header: 'Email' }, { header: 'Role' }, { header: 'Sent' }, { header: 'Expires' }, { header: 'Actions', align: 'right' }];

const TEAM_TABS = ['members', 'invitations'] as const;

export function TeamScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.account.me.queryOptions());
  const role = me.data?.role;
  const canManage = role === 'owner' || role === 'admin';

  const members = useQuery(trpc.team.members.queryOptions());
  const invitations = useQuery({ ...trpc.team.invitations.queryOptions(), enabled: canManage });
  const seats = useQuery({ ...trpc.team.seats.queryOptions(), enabled: canManage });

  const [inviteOpen, setInviteOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  // Team Members: /dashboard/team; Pending Invitations: ?tab=invitations (reload, Back and links keep it).
  const [tab, setTab] = useTabParam(TEAM_TABS);

  const loadError = members.error ?? invitations.error ?? seats.error;
  useEffect(() => {
    // A refusal means the role just changed (e.g. after joining a team as a member): not a load failure.
    if (!loadError || appCode(loadError) === 'PERMISSION_DENIED') return;
    console.error('Failed to load team data', loadError);
    toast.error(TEAM_TEXT.errorTitle, { description: TEAM_TEXT.loadFailed, id: 'team-load-error' });
  }, [loadError]);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.team.members.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.team.invitations.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.team.seats.queryKey() }),
    ]);

  const invite = useMutation(trpc.team.invite.mutationOptions());
  const remove = useMutation(trpc.team.removeMember.mutationOptions());
  const cancel = useMutation(trpc.team.cancelInvitation.mutationOptions());

  // An admin who removes themselves has left this account: everything the dashboard shows (plan,
  // role, credits, the team) now belongs to another account, so all of it is reloaded.
  const leftAccount = useRef(false);
  const removal = useConfirmAction(
    teamChange(
      async (m) => {
        const removed = await remove.mutateAsync({ memberId: m.id });
        if (m.self) leftAccount.current = true;
        return removed;
      },
      TEAM_TEXT.memberRemovedTitle,
      (email, removed) => TEAM_TEXT.memberRemovedBody(email, removed.schedules_paused),
      TEAM_TEXT.removeFailed,
      () => (leftAccount.current ? queryClient.invalidateQueries() : refresh()),
    ),
  );
  // A member (admins remove their own row) leaves on their own: the dashboard then shows another account.
  const leave = useMutation(trpc.team.leave.mutationOptions());
  const leaving = useConfirmAction(teamChange((p) => leave.mutateAsync({ accountId: p.id }), TEAM_TEXT.leftTitle, TEAM_TEXT.leftBody, TEAM_TEXT.leaveFailed, () => queryClient.invalidateQueries()));
  const cancellation = useConfirmAction(
    teamChange((inv) => cancel.mutateAsync({ invitationId: inv.id }), TEAM_TEXT.invitationCancelledTitle, TEAM_TEXT.invitationCancelledBody, TEAM_TEXT.cancelFailed, refresh),
  );

  const limit = seats.data?.limit ?? me.data?.team_member_limit ?? 1;
  // Spec section 6: only members take seats; an invitation is checked when it is accepted.
  const used = seats.data?.members ?? 0;
  const atLimit = seats.data !== undefined && !isUnlimited(limit) && used >= limit;
  const planName = me.data ? planByType(me.data.plan).name : undefined;

  function openInvite() {
    if (atLimit) setUpgradeOpen(true);
    else setInviteOpen(true);
  }

  async function sendInvite(v: { email: string; role: InviteRole }): Promise<boolean> {
    try {
      const created = await invite.mutateAsync(v);
      toast.success(TEAM_TEXT.invitationSentTitle, { description: TEAM_TEXT.invitationSentBody(created.email) });
      await refresh();
      setTab(1);
      return true;
    } catch (err) {
      if (appCode(err) === 'PLAN_REQUIRED') {
        setInviteOpen(false);
        setUpgradeOpen(true);
        await refresh();
        return false;
      }
      toast.error(TEAM_TEXT.errorTitle, { description: errorMessage(err, TEAM_TEXT.inviteFailed) });
      return false;
    }
  }

  const memberRows = members.data ?? [];
  const invitationRows = invitations.data ?? [];
  const memberColumns = tableColumns({ header: 'Name' }, { header: 'Email' }, { header: 'Role' }, { header: 'Joined' }, canManage && { header: 'Actions', align: 'right' });

  return (
    <div className="space-y-6">
      <AcceptInvitationBanner />
      <PageHeader
        title="Team"
        description={canManage || !role ? "Everyone who can use this account, and the invitations you've sent." : 'Everyone who can use this account.'}
        action={
          canManage
            ? { label: 'Invite Member', icon: UserPlus, onClick: openInvite, disabled: seats.isPending }
            : role === 'member' && me.data
              ? { label: TEAM_TEXT.leaveLabel, icon: LogOut, onClick: () => leaving.ask({ id: me.data.accountId, email: me.data.user.email, self: true }) }
              : undefined
        }
      />

      {canManage && seats.data && (
        <p className="text-sm text-slate-600" data-testid="seat-summary">
          <Users className="mr-1.5 inline size-4 align-[-3px] text-slate-400" aria-hidden />
          {isUnlimited(limit)
            ? `${seats.data.members} member(s) and ${seats.data.invitations} pending invitation(s). Your ${planName ?? ''} plan has no team size limit.`
            : `${used} of ${limit} seat(s) used on the ${planName ?? ''} plan; ${seats.data.invitations} pending invitation(s). An invitation takes a seat when it is accepted.`}
        </p>
      )}

      <Tabs selectedIndex={canManage ? tab : 0} onChange={setTab}>
        <TabsList aria-label="Team" className="inline-flex max-w-full">
          {/* A count only once it is known: not '(0)' while loading or after a failed load. On a
              narrow phone a label wraps rather than scroll its count out of the bar. */}
          <TabsTrigger className="max-sm:whitespace-normal">Team Members{members.data ? ` (${memberRows.length})` : ''}</TabsTrigger>
          {canManage && <TabsTrigger className="max-sm:whitespace-normal">Pending Invitations{invitations.data ? ` (${invitationRows.length})` : ''}</TabsTrigger>}
        </TabsList>
        <TabsPanels className="mt-4">
          <TabsPanel>
            <DataTable columns={memberColumns} query={members} loadingText="Loading team…" failedText={TEAM_TEXT.loadFailed}>
              {(m) => (
                <tr key={m.id} data-testid="member-row">
                  <td className={`${td} font-medium text-slate-900`}>
                    <bdi>{m.full_name || '—'}</bdi>
                    {m.user_id === me.data?.user.id && <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>}
                  </td>
                  <td className={td}>{m.email}</td>
                  <td className={td}>
                    <RoleBadge role={m.role} />
                    {!m.seated && (
                      <span className="ml-2" title={TEAM_TEXT.noSeatHint(limit)}>
                        <Badge variant="danger">{TEAM_TEXT.noSeat}</Badge>
                      </span>
                    )}
                  </td>
                  <td className={`${td} whitespace-nowrap text-slate-500`}>{formatDate(m.created_at)}</td>
                  {canManage && (
                    <td className={`${td} text-right`}>
                      {m.role === 'owner' ? (
                        <span className="text-xs text-slate-400">—</span>
                      ) : (
                        <RowAction icon={Trash2} onClick={() => removal.ask({ id: m.id, email: m.email, self: m.user_id === me.data?.user.id })} aria-label={`Remove ${m.email}`}>
                          Remove
                        </RowAction>
                      )}
                    </td>
                  )}
                </tr>
              )}
            </DataTable>
          </TabsPanel>
          {canManage && (
            <TabsPanel>
              <DataTable
                columns={INVITATION_COLUMNS}
                query={invitations}
                loadingText="Loading invitations…"
                failedText={TEAM_TEXT.loadFailed}
                empty={
                  <>
                    <Mail className="mx-auto mb-2 size-6 text-slate-300" aria-hidden />
                    No pending invitations.
                  </>
                }
              >
                {(inv) => (
                  <tr key={inv.id} data-testid="invitation-row">
                    <td className={`${td} font-medium text-slate-900`}>{inv.email}</td>
                    <td className={td}>
                      <RoleBadge role={inv.role} />
                    </td>
                    <td className={`${td} whitespace-nowrap text-slate-500`}>{formatDate(inv.created_at)}</td>
                    <td className={`${td} whitespace-nowrap`}>
                      {inv.expired ? (
                        <Badge variant="danger">Expired</Badge>
                      ) : (
                        <span className="inline-flex items-center gap-1 text-slate-500">
                          <Clock className="size-3.5" aria-hidden /> {formatDate(inv.expires_at)}
                        </span>
                      )}
                    </td>
                    <td className={`${td} text-right`}>
                      <RowAction icon={X} onClick={() => cancellation.ask({ id: inv.id, email: inv.email })} aria-label={`Cancel invitation to ${inv.email}`}>
                        Cancel
                      </RowAction>
                    </td>
                  </tr>
                )}
              </DataTable>
            </TabsPanel>
          )}
        </TabsPanels>
      </Tabs>

      {role === 'member' && (
        <ConfirmDialog {...leaving.dialog} title={TEAM_TEXT.leaveTitle} description={TEAM_TEXT.leaveBody} confirmLabel={TEAM_TEXT.leaveLabel} />
      )}
      {canManage && (
        <>
          <InviteDialog open={inviteOpen} onClose={() => setInviteOpen(false)} onInvite={sendInvite} busy={invite.isPending} />
          <UpgradeDialog open={upgradeOpen} limit={limit} planName={planName} onClose={() => setUpgradeOpen(false)} />
          <ConfirmDialog
            {...removal.dialog}
            title="Remove team member?"
            description={
              !removal.target
                ? ''
                : removal.target.self
                  ? TEAM_TEXT.leaveBody
                  : TEAM_TEXT.removeBody(removal.target.email)
            }
            confirmLabel="Remove Member"
          />
          <ConfirmDialog
            {...cancellation.dialog}
            title="Cancel invitation?"
            description={cancellation.target ? `The invitation to ${cancellation.target.email} will be deleted and its link will stop working.` : ''}
            confirmLabel="Cancel Invitation"
            cancelLabel="Keep Invitation"
          />
        </>
      )}
    </div>
  );
}
