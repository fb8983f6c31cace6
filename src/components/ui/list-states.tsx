import { RefreshCw, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { IconTile } from './icon-tile';
import { Spinner } from './spinner';

/** What a screen's list shows while it first loads. */
export function ListLoading() {
  return (
    <div className="grid h-64 place-items-center">
      <Spinner />
    </div>
  );
}

/** A list that could not load: what failed, and a way to try again. */
export function ListFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-16 text-center" role="alert">
      <p className="text-sm font-medium text-slate-900">{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RefreshCw className="size-4" aria-hidden /> Try again
      </Button>
    </div>
  );
}

export interface ListEmptyProps {
  icon: LucideIcon;
  /** The icon disc's colours. */
  tone: string;
  title: string;
  children: ReactNode;
  /** The first step, e.g. a button that creates the first item. */
  action: ReactNode;
  'data-testid'?: string;
}

/** A list with nothing in it yet: what will show here, and how to start. */
export function ListEmpty({ icon, tone, title, children, action, ...props }: ListEmptyProps) {
  return (
    <div className="flex flex-col items-center gap-4 px-6 py-16 text-center" {...props}>
      <IconTile icon={icon} className={cn('size-12 rounded-full', tone)} iconClassName="size-6" />
      <div className="max-w-sm space-y-1">
        <p className="font-medium text-slate-900">{title}</p>
        <p className="text-sm text-slate-600">{children}</p>
      </div>
      {action}
    </div>
  );
}
