import { Check, RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { paths } from '../../config/paths';

const PERKS = ['Revalidate saved lists daily, weekly or monthly', 'See which addresses turned invalid since the last run', 'Every run appears in History with full results'];

/** Spec "Auto Revalidation": the upgrade dialog for plans below Pro. */
export function UpgradeDialog({ open, onClose, planName }: { open: boolean; onClose: () => void; planName?: string }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={
        <span className="flex items-center gap-2">
          <span className="grid size-8 place-items-center rounded-lg bg-brand-50 text-brand-600">
            <RefreshCw className="size-4" aria-hidden />
          </span>
          Upgrade to Pro
        </span>
      }
      description={`Auto revalidation is available on the Pro, Business and Enterprise plans.${planName ? ` You are on the ${planName} plan.` : ''}`}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>Maybe Later</Button>
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
