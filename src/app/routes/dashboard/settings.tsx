import { PageHeader } from '../../../components/layouts/page-header';
import { DangerZone } from '../../../features/account/components/danger-zone';
import { ProfileForm } from '../../../features/account/components/profile-form';
import { SecurityCard } from '../../../features/account/components/security-card';

export default function SettingsRoute() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title="Settings" description="Your profile, security and account." />
      <ProfileForm />
      <SecurityCard />
      <DangerZone />
    </div>
  );
}
