import { TeamScreen } from '../../../features/team/team-screen';

export default function Route() {
  return <TeamScreen />;
}
