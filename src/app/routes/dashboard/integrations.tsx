import { IntegrationsScreen } from '../../../features/integrations/integrations-screen';

export default function Route() {
  return <IntegrationsScreen />;
}
