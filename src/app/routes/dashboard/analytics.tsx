import { AnalyticsScreen } from '../../../features/reporting/analytics-screen';

export default function Route() {
  return <AnalyticsScreen />;
}
