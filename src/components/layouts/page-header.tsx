import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';

/** A screen's primary action, e.g. "Invite Member" (give it only to those allowed to use it). */
export interface PageAction {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  disabled?: boolean;
}

export function PageHeader({ title, description, actions, action }: { title: string; description?: ReactNode; actions?: ReactNode; action?: PageAction }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h2 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h2>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {(actions || action) && (
        <div className="flex items-center gap-2">
          {actions}
          {action && (
            <Button onClick={action.onClick} disabled={action.disabled}>
              <action.icon className="size-4" aria-hidden /> {action.label}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
