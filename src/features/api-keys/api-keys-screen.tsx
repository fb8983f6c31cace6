import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, KeyRound, Lock, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import type { ApiKey } from '../../../server/contracts/api-keys';
import { planAllows, planByType } from '../../../server/contracts/plans';
import { PageHeader } from '../../components/layouts/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { IconTile } from '../../components/ui/icon-tile';
import { DataTable, RowAction, cellClass, tableColumns } from '../../components/ui/table';
import { UpgradeDialog } from '../../components/ui/upgrade-dialog';
import { paths } from '../../config/paths';
import { useConfirmAction } from '../../hooks/use-confirm-action';
import { useTRPC } from '../../lib/trpc';
import { CreateKeyDialog } from './create-key-dialog';
import { API_KEYS_UPGRADE, RevokeKeyDialog } from './key-dialogs';
import { API_KEYS_TEXT, formatDate, formatLastUsed, maskedKey, scopesSummary } from './messages';
import { WebhooksSection } from './webhooks-section';
import { PlanLoadFailed } from '../jobs/plan-load-failed';
import { isolateName } from '../../lib/isolate-name';

const td = cellClass('comfortable');

/** Spec "API Keys": the keys table, create dialog (key shown once), revoke confirmation, upgrade dialog. */
export function ApiKeysScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.account.me.queryOptions());
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const plan = me.data?.plan;
  const planAllowsKeys = plan ? planAllows(plan, 'apiKeys') : false;
  const canManage = me.data?.role === 'owner' || me.data?.role === 'admin';
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions());

  const [createOpen, setCreateOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);

  useEffect(() => {
    if (!keys.error) return;
    console.error(API_KEYS_TEXT.loadFailed, keys.error);
    toast.error(API_KEYS_TEXT.errorTitle, { description: API_KEYS_TEXT.loadFailed, id: 'api-keys-load-error' });
  }, [keys.error]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });

  function openCreate() {
    if (planAllowsKeys) setCreateOpen(true);
    else setUpgradeOpen(true);
  }

  const revocation = useConfirmAction<ApiKey>({
    async run(key) {
      await revoke.mutateAsync({ id: key.id });
      toast.success(API_KEYS_TEXT.revokedTitle, { description: isolateName(API_KEYS_TEXT.revokedBody(key.name), key.name) });
    },
    onError(err) {
      console.error(API_KEYS_TEXT.revokeFailed, err);
      toast.error(API_KEYS_TEXT.errorTitle, { description: API_KEYS_TEXT.revokeFailed });
    },
    onDone: refresh,
  });

  const columns = tableColumns(
    { header: 'Name' },
    { header: 'Key' },
    { header: 'Scopes' },
    { header: 'Created' },
    { header: 'Last Used' },
    { header: 'Status' },
    canManage && { header: 'Actions', align: 'right', srOnly: true },
  );
  const planName = plan ? planByType(plan).name : undefined;

  return (
    <div className="space-y-6">
      <PageHeader
        title="API Keys"
        description={
          <>
            Keys for the REST API, shared by your team. Each key is shown once, when it is created.{' '}
            <Link to={paths.dashboard.documentation} className="font-medium text-brand-700 hover:underline">
              API documentation
            </Link>
            .
          </>
        }
        action={canManage ? { label: 'Create API Key', icon: Plus, onClick: openCreate, disabled: me.isPending } : undefined}
      />

      {me.isError && <PlanLoadFailed onRetry={() => void me.refetch()} />}

      {me.data && !planAllowsKeys && (
        <div className="flex flex-col gap-3 rounded-xl border border-brand-200 bg-brand-50/60 px-5 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="api-keys-plan-notice">
          <div className="flex gap-3">
            <Lock className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden />
            <div>
              <p className="text-sm font-semibold text-slate-900">API access starts on the Starter plan</p>
              <p className="text-sm text-slate-600">You are on the {planName} plan. Upgrade to create keys and call the API from your own code.</p>
            </div>
          </div>
          <Button to={paths.dashboard.billing} variant="outline" size="sm">
            View Plans
          </Button>
        </div>
      )}

      <DataTable
        caption="API keys"
        columns={columns}
        query={keys}
        loadingText="Loading API keys…"
        failedText={API_KEYS_TEXT.loadFailed}
        empty={
          <>
            <IconTile icon={KeyRound} className="mx-auto mb-3 size-10 rounded-full bg-slate-100 text-slate-500" iconClassName="size-5" />
            <span className="block font-medium text-slate-900">No API keys yet</span>
            <span className="mt-1 block">{canManage ? 'Create a key to start validating from your own code.' : 'An owner or admin of this account can create one.'}</span>
          </>
        }
      >
        {(k) => (
          <tr key={k.id} data-testid="api-key-row" className={k.status === 'revoked' ? 'bg-slate-50/60' : undefined}>
            <td className={`${td} max-w-xs min-w-36 font-medium break-words text-slate-900`}>
              <bdi>{k.name}</bdi>
              {k.is_test && (
                <Badge variant="warning" className="ml-2 align-middle" title="Test key: answers from the sandbox, never uses credits">
                  Test
                </Badge>
              )}
            </td>
            <td className={`${td} font-mono text-[13px] whitespace-nowrap text-slate-600`}>{maskedKey(k.key_prefix)}</td>
            <td className={`${td} text-slate-600`} data-testid="api-key-scopes">
              <span className="block">{scopesSummary(k.scopes)}</span>
              {k.rate_limit_per_second !== null && <span className="block text-xs text-slate-500">{k.rate_limit_per_second} req/s</span>}
            </td>
            <td className={`${td} whitespace-nowrap text-slate-500`}>{formatDate(k.created_at)}</td>
            <td className={`${td} whitespace-nowrap text-slate-500`}>{formatLastUsed(k.last_used_at)}</td>
            <td className={td}>
              {k.status === 'active' ? <Badge variant="success">Active</Badge> : <Badge variant="neutral">Revoked</Badge>}
              {k.status === 'active' && k.creator_seatless && (
                <span className="mt-1 block max-w-48 text-xs text-amber-700" data-testid="api-key-seatless">
                  Refused until its creator has a seat in this team
                </span>
              )}
            </td>
            {canManage && (
              <td className={`${td} text-right`}>
                {k.status === 'active' && (
                  <RowAction icon={Ban} iconClassName="size-3.5" onClick={() => revocation.ask(k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </RowAction>
                )}
              </td>
            )}
          </tr>
        )}
      </DataTable>

      {canManage && planAllowsKeys && plan && <WebhooksSection plan={plan} />}

      <CreateKeyDialog
        open={createOpen}
        onClose={() => setCreateOpen(false)}
        onCreated={() => {
          void refresh();
          // Overview's Getting Started step "Generate an API key" is now done.
          void queryClient.invalidateQueries({ queryKey: trpc.account.overview.pathKey() });
        }}
        onPlanRequired={() => setUpgradeOpen(true)}
        planRate={plan ? planByType(plan).apiRatePerSecond : null}
      />
      <RevokeKeyDialog target={revocation.target} {...revocation.dialog} />
      <UpgradeDialog open={upgradeOpen} onClose={() => setUpgradeOpen(false)} offer={API_KEYS_UPGRADE} planName={planName} />
    </div>
  );
}
