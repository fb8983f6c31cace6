import { Check, type LucideIcon } from 'lucide-react';
import { paths } from '../../config/paths';
import { Button } from './button';
import { Dialog } from './dialog';

export interface UpgradeDialogProps {
  open: boolean;
  onClose: () => void;
  icon: LucideIcon;
  title: string;
  /** Which plans include the feature, e.g. "API keys are available on the Starter, … plans." */
  availability: string;
  /** The user's current plan name, mentioned when known. */
  planName?: string;
  perks: string[];
}

/** The dialog a plan-gated feature shows below its plan: what the upgrade brings, and the way to Billing. */
export function UpgradeDialog({ open, onClose, icon: Icon, title, availability, planName, perks }: UpgradeDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={
        <span className="flex items-center gap-2">
          <span className="grid size-8 place-items-center rounded-lg bg-brand-50 text-brand-600">
            <Icon className="size-4" aria-hidden />
          </span>
          {title}
        </span>
      }
      description={`${availability}${planName ? ` You are on the ${planName} plan.` : ''}`}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>Maybe Later</Button>
          <Button to={paths.dashboard.billing}>View Plans</Button>
        </>
      }
    >
      <ul className="space-y-2.5 text-sm text-slate-700">
        {perks.map((p) => (
          <li key={p} className="flex gap-2.5">
            <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden /> {p}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
