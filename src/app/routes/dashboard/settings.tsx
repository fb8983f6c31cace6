import { PageHeader } from '../../../components/layouts/page-header';

// Interim page while this screen's issue is in progress.
export default function Route() {
  return <PageHeader title="Settings" description="Your profile, security and account." />;
}
