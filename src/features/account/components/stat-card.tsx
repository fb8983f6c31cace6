import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

export function StatCard({ title, icon: Icon, value, hint, children, testId }: { title: string; icon: LucideIcon; value?: ReactNode; hint?: ReactNode; children?: ReactNode; testId?: string }) {
  return (
    <Card className="flex flex-col p-5" data-testid={testId}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-slate-600">{title}</h3>
        <span className="grid size-8 place-items-center rounded-lg bg-brand-50 text-brand-600">
          <Icon className="size-4" aria-hidden />
        </span>
      </div>
      {value !== undefined && <p className="mt-3 text-2xl font-semibold tracking-tight text-slate-900 tabular-nums">{value}</p>}
      {hint && <div className="mt-1 text-sm text-slate-500">{hint}</div>}
      {children}
    </Card>
  );
}
