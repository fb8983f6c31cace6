import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { PageHeader } from '../../../components/layouts/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useUploadCsv } from '../../../features/jobs/api';
import { BULK_TEXT } from '../../../features/jobs/messages';
import { errorMessage } from '../../../lib/error-message';
import { PlanLocked } from '../../../features/jobs/plan-locked';
import { UploadCard } from '../../../features/jobs/upload-card';
import { FormatNotes, HowItWorks } from '../../../features/jobs/upload-guidance';
import { usePlanGate } from '../../../features/jobs/use-plan';
import { creditsLabel } from '../../../../server/contracts/plans';

export default function BulkUploadRoute() {
  const gate = usePlanGate('csvUpload');
  const upload = useUploadCsv();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function onUpload(file: File): Promise<boolean> {
    setBusy(true);
    try {
      const r = await upload.mutateAsync(file);
      toast.success(BULK_TEXT.uploadSuccessTitle, { description: BULK_TEXT.uploadSuccessBody(r) });
      navigate(paths.dashboard.history);
      return true;
    } catch (e) {
      console.error('Upload failed:', e);
      toast.error(BULK_TEXT.uploadFailedTitle, { description: errorMessage(e, BULK_TEXT.uploadFailedFallback) });
      return false;
    } finally {
      setBusy(false);
    }
  }

  const header = (
    <PageHeader
      title="Bulk Upload"
      description="Upload a CSV list and validate every address."
      actions={
        gate.allowed ? (
          <Button variant="outline" to={paths.dashboard.history}>
            View History
          </Button>
        ) : undefined
      }
    />
  );

  if (gate.isLoading) {
    return (
      <>
        {header}
        <Card className="grid h-64 place-items-center">
          <Spinner />
        </Card>
      </>
    );
  }

  if (gate.isError) {
    return (
      <>
        {header}
        <Card className="p-6 text-sm text-red-700" role="alert">
          {errorMessage(gate.error, 'Could not load your plan. Please reload the page.')}
        </Card>
      </>
    );
  }

  if (!gate.allowed) {
    return (
      <>
        {header}
        <PlanLocked title={BULK_TEXT.notAvailableTitle} highlights={['Up to 10,000 emails per file', 'Live progress in History', 'Downloadable CSV results']}>
          {BULK_TEXT.notAvailableBody}
        </PlanLocked>
      </>
    );
  }

  return (
    <>
      {header}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <UploadCard busy={busy} credits={gate.me ? creditsLabel(gate.me.credits_balance, gate.me.monthly_validations_quota) : undefined} onUpload={onUpload} />
          <HowItWorks />
        </div>
        <FormatNotes />
      </div>
    </>
  );
}
