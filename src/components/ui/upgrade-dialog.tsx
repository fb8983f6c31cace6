import { Check, type LucideIcon } from 'lucide-react';
import { paths } from '../../config/paths';
import { Button } from './button';
import { Dialog } from './dialog';
import { IconList } from './icon-list';

/** What a plan-gated feature's upgrade brings: one per feature, declared next to it. */
export interface UpgradeOffer {
  icon: LucideIcon;
  title: string;
  /** Which plans include the feature, e.g. "API keys are available on the Starter, … plans." */
  availability: string;
  perks: string[];
}

export interface UpgradeDialogProps {
  open: boolean;
  onClose: () => void;
  offer: UpgradeOffer;
  /** The user's current plan name, mentioned when known. */
  planName?: string;
}

/** The dialog a plan-gated feature shows below its plan: what the upgrade brings, and the way to Billing. */
export function UpgradeDialog({ open, onClose, offer, planName }: UpgradeDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      icon={offer.icon}
      title={offer.title}
      description={`${offer.availability}${planName ? ` You are on the ${planName} plan.` : ''}`}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>Maybe Later</Button>
          <Button to={paths.dashboard.billing}>View Plans</Button>
        </>
      }
    >
      <IconList items={offer.perks} icon={Check} className="space-y-2.5 text-sm text-slate-700" itemClassName="flex gap-2.5" iconClassName="mt-0.5 size-4 shrink-0 text-emerald-600" />
    </Dialog>
  );
}
