import { RefreshCw } from 'lucide-react';
import { UpgradeDialog } from '../../components/ui/upgrade-dialog';

const PERKS = ['Revalidate saved lists daily, weekly or monthly', 'See which addresses turned invalid since the last run', 'Every run appears in History with full results'];

/** Spec "Auto Revalidation": the upgrade dialog for plans below Pro. */
export function SchedulesUpgradeDialog({ open, onClose, planName }: { open: boolean; onClose: () => void; planName?: string }) {
  return (
    <UpgradeDialog
      open={open}
      onClose={onClose}
      icon={RefreshCw}
      title="Upgrade to Pro"
      availability="Auto revalidation is available on the Pro, Business and Enterprise plans."
      planName={planName}
      perks={PERKS}
    />
  );
}
