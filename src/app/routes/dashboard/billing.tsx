import { BillingScreen } from '../../../features/billing/billing-screen';

export default function Route() {
  return <BillingScreen />;
}
