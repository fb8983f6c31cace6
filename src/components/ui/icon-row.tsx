import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** The icon's square: `soft` (tinted) or `solid` (brand colour, raised). */
const BADGE = {
  soft: 'size-10 rounded-lg bg-brand-50 text-brand-600',
  solid: 'size-11 rounded-xl bg-brand-600 text-white shadow-sm shadow-brand-600/30',
} as const;

/** An icon in a square beside a title and a few lines (contact details, highlights). */
export function IconRow({
  as: Tag = 'div',
  icon: Icon,
  title,
  tone = 'soft',
  className,
  children,
}: {
  as?: 'div' | 'li';
  icon: LucideIcon;
  title: string;
  tone?: keyof typeof BADGE;
  /** Classes of the text column (e.g. a smaller title). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <Tag className="flex gap-4">
      <span className={cn('flex shrink-0 items-center justify-center', BADGE[tone])}>
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className={className}>
        <h3 className="font-semibold text-slate-900">{title}</h3>
        <div className="mt-1 text-sm leading-6 text-slate-600">{children}</div>
      </div>
    </Tag>
  );
}
