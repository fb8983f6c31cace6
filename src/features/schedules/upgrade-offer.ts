import { RefreshCw } from 'lucide-react';
import type { UpgradeOffer } from '../../components/ui/upgrade-dialog';

/** Spec "Auto Revalidation": the upgrade dialog for plans below Pro. */
export const SCHEDULES_UPGRADE: UpgradeOffer = {
  icon: RefreshCw,
  title: 'Upgrade to Pro',
  availability: 'Auto revalidation is available on the Pro, Business and Enterprise plans.',
  perks: ['Revalidate saved lists daily, weekly or monthly', 'See which addresses turned invalid since the last run', 'Every run appears in History with full results'],
};
