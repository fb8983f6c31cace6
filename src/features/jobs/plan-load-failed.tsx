import { Card } from '../../components/ui/card';
import { ListFailed } from '../../components/ui/list-states';

/** The account's plan could not be loaded: say so (never "upgrade" to someone who may be paying) and offer to try again. */
export function PlanLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Card className="mb-6" data-testid="plan-load-failed">
      <ListFailed message="Could not load your plan." onRetry={onRetry} />
    </Card>
  );
}
