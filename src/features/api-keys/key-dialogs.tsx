import { Check, KeyRound } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { paths } from '../../config/paths';
import { maskedKey } from './messages';

/** Spec "API Keys": the revoke confirmation. Revocation is irreversible. */
export function RevokeKeyDialog({ target, pending, onCancel, onConfirm }: { target: { name: string; key_prefix: string } | null; pending: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open={target !== null}
      onClose={onCancel}
      size="md"
      title="Revoke API key?"
      description={
        target && (
          <>
            <span className="font-medium text-slate-800">{target.name}</span> (<span className="font-mono text-[13px]">{maskedKey(target.key_prefix)}</span>) will stop working
            immediately. Anything still using it will get 401 errors. This cannot be undone.
          </>
        )
      }
      actions={
        <>
          <Button variant="outline" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={onConfirm} loading={pending}>
            Revoke Key
          </Button>
        </>
      }
    />
  );
}

const PERKS = ['Validate addresses from your own code with POST /v1/validate', 'Send up to 10,000 addresses per bulk request, with webhooks', 'Share keys with your team; revoke any key instantly'];

/** Spec "API Keys": the upgrade dialog (API key creation needs Starter or above). */
export function UpgradeDialog({ open, onClose, planName }: { open: boolean; onClose: () => void; planName?: string }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={
        <span className="flex items-center gap-2">
          <span className="grid size-8 place-items-center rounded-lg bg-brand-50 text-brand-600">
            <KeyRound className="size-4" aria-hidden />
          </span>
          Upgrade to use the API
        </span>
      }
      description={`API keys are available on the Starter, Pro, Business and Enterprise plans.${planName ? ` You are on the ${planName} plan.` : ''}`}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            Maybe Later
          </Button>
          <Button to={paths.dashboard.billing}>View Plans</Button>
        </>
      }
    >
      <ul className="space-y-2.5 text-sm text-slate-700">
        {PERKS.map((p) => (
          <li key={p} className="flex gap-2.5">
            <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden /> {p}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
