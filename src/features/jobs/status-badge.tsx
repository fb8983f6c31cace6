import { Ban, CheckCircle2, Clock, Loader2, XCircle } from 'lucide-react';
import { Badge, type BadgeVariant } from '../../components/ui/badge';
import type { JobStatus } from './format';

const LOOK: Record<JobStatus, { label: string; variant: BadgeVariant; icon: typeof Clock; spin?: boolean }> = {
  pending: { label: 'Pending', variant: 'neutral', icon: Clock },
  processing: { label: 'Processing', variant: 'brand', icon: Loader2, spin: true },
  completed: { label: 'Completed', variant: 'success', icon: CheckCircle2 },
  failed: { label: 'Failed', variant: 'danger', icon: XCircle },
  cancelled: { label: 'Cancelled', variant: 'neutral', icon: Ban },
};

export function JobStatusBadge({ status }: { status: JobStatus }) {
  const look = LOOK[status];
  return (
    <Badge variant={look.variant} data-testid="job-status">
      <look.icon className={look.spin ? 'size-3 animate-spin' : 'size-3'} aria-hidden />
      {look.label}
    </Badge>
  );
}

export type ResultKind = 'valid' | 'invalid' | 'risky';

const RESULT_VARIANT: Record<ResultKind, BadgeVariant> = { valid: 'success', invalid: 'danger', risky: 'warning' };

export function ResultBadge({ result }: { result: ResultKind }) {
  return <Badge variant={RESULT_VARIANT[result]}>{result[0]!.toUpperCase() + result.slice(1)}</Badge>;
}
