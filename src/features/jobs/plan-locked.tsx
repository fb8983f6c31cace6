import { Lock, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../config/paths';

/** A full-width notice that the plan does not include a screen, with the way to upgrade. */
export function PlanLocked({ title, children, highlights }: { title: string; children: ReactNode; highlights?: string[] }) {
  return (
    <Card className="overflow-hidden" data-testid="plan-locked">
      <div className="flex flex-col items-center gap-4 px-6 py-12 text-center">
        <span className="grid size-14 place-items-center rounded-full bg-brand-50 text-brand-600 ring-8 ring-brand-50/50">
          <Lock className="size-6" aria-hidden />
        </span>
        <div className="max-w-md space-y-2">
          <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
          <p className="text-sm text-slate-600">{children}</p>
        </div>
        {highlights && highlights.length > 0 && (
          <ul className="flex flex-wrap justify-center gap-2">
            {highlights.map((h) => (
              <li key={h} className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700">
                <Sparkles className="size-3.5 text-brand-600" aria-hidden /> {h}
              </li>
            ))}
          </ul>
        )}
        <Button to={paths.dashboard.billing} className="mt-2">View Plans</Button>
      </div>
    </Card>
  );
}
