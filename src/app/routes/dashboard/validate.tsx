import { PageHeader } from '../../../components/layouts/page-header';
import { PlanNote } from '../../../features/validation/components/plan-note';
import { SingleCheckForm } from '../../../features/validation/components/single-check-form';

export default function ValidateRoute() {
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader title="Validate Email" description="Check a single address in real time: syntax, DNS, MX records and the mailbox itself." />
      <PlanNote />
      <SingleCheckForm />
    </div>
  );
}
