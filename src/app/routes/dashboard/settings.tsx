import { useQuery } from '@tanstack/react-query';
import { can } from '../../../../server/contracts/permissions';
import { PageHeader } from '../../../components/layouts/page-header';
import { AuditLog } from '../../../features/account/components/audit-log';
import { DangerZone } from '../../../features/account/components/danger-zone';
import { ProfileForm } from '../../../features/account/components/profile-form';
import { SecurityCard } from '../../../features/account/components/security-card';
import { WhiteLabelCard } from '../../../features/branding/white-label-card';
import { useTRPC } from '../../../lib/trpc';

export default function SettingsRoute() {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions());
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title="Settings" description="Your profile, security and account." />
      <ProfileForm />
      <SecurityCard />
      {can(me.data?.role, 'webhooks.manage') && <WhiteLabelCard />}
      {can(me.data?.role, 'audit.read') && <AuditLog />}
      <DangerZone />
    </div>
  );
}
