import { Lock, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { IconList } from '../../components/ui/icon-list';
import { IconTile } from '../../components/ui/icon-tile';
import { paths } from '../../config/paths';

/** A full-width notice that the plan does not include a screen, with the way to upgrade. */
export function PlanLocked({ title, children, highlights }: { title: string; children: ReactNode; highlights?: string[] }) {
  return (
    <Card className="overflow-hidden" data-testid="plan-locked">
      <div className="flex flex-col items-center gap-4 px-6 py-12 text-center">
        <IconTile icon={Lock} className="size-14 rounded-full bg-brand-50 text-brand-600 ring-8 ring-brand-50/50" iconClassName="size-6" />
        <div className="max-w-md space-y-2">
          <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
          <p className="text-sm text-slate-600">{children}</p>
        </div>
        {highlights && highlights.length > 0 && (
          <IconList
            items={highlights}
            icon={Sparkles}
            className="flex flex-wrap justify-center gap-2"
            itemClassName="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700"
            iconClassName="size-3.5 text-brand-600"
          />
        )}
        <Button to={paths.dashboard.billing} className="mt-2">View Plans</Button>
      </div>
    </Card>
  );
}
