import { ApiKeysScreen } from '../../../features/api-keys/api-keys-screen';

export default function Route() {
  return <ApiKeysScreen />;
}
