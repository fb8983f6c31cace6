import { KeyRound } from 'lucide-react';
import { ConfirmDialog, type ConfirmDialogProps } from '../../components/ui/confirm-dialog';
import type { UpgradeOffer } from '../../components/ui/upgrade-dialog';
import { maskedKey } from './messages';

/** Spec "API Keys": the revoke confirmation. Revocation is irreversible. */
export function RevokeKeyDialog({
  target,
  ...dialog
}: Pick<ConfirmDialogProps, 'open' | 'busy' | 'onConfirm' | 'onClose'> & { target: { name: string; key_prefix: string } | null }) {
  return (
    <ConfirmDialog
      {...dialog}
      size="md"
      title="Revoke API key?"
      description={
        target && (
          <>
            <bdi className="font-medium text-slate-800">{target.name}</bdi> (<span className="font-mono text-[13px]">{maskedKey(target.key_prefix)}</span>) will stop working
            immediately. Anything still using it will get 401 errors. This cannot be undone.
          </>
        )
      }
      confirmLabel="Revoke Key"
    />
  );
}

/** Spec "API Keys": the upgrade dialog (API key creation needs Starter or above). */
export const API_KEYS_UPGRADE: UpgradeOffer = {
  icon: KeyRound,
  title: 'Upgrade to use the API',
  availability: 'API keys are available on the Starter, Pro, Business and Enterprise plans.',
  // What Starter (the plan this dialog sells) gives: job webhooks open at Pro, and Starter is one user.
  perks: ['Validate addresses from your own code with POST /v1/validate', 'Send up to 10,000 addresses per bulk request (a webhook when each job ends, from Pro)', 'Revoke any key instantly; from Pro, share keys with your team'],
};
