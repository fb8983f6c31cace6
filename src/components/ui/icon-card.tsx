import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

export interface IconCardItem {
  icon: LucideIcon;
  title: string;
  text: string;
}

/** The spacing of the cards: `md` on the marketing pages, `sm` in the documentation. */
const SIZE = {
  md: { card: 'p-6', badge: 'size-10', icon: 'size-5', title: 'mt-4', text: 'mt-2' },
  sm: { card: 'p-5', badge: 'size-9', icon: 'size-[18px]', title: 'mt-3', text: 'mt-1.5' },
} as const;

/** A list of cards, each an icon in a tinted square, a title and a sentence. The caller lays out the list (grid, gaps). */
export function IconCardList({ items, size = 'md', className }: { items: readonly IconCardItem[]; size?: keyof typeof SIZE; className?: string }) {
  const s = SIZE[size];
  return (
    <ul role="list" className={className}>
      {items.map(({ icon: Icon, title, text }) => (
        <li key={title} className={cn('rounded-2xl border border-slate-200 bg-white shadow-sm', s.card)}>
          <span className={cn('flex items-center justify-center rounded-lg bg-brand-50 text-brand-600', s.badge)}>
            <Icon className={s.icon} aria-hidden="true" />
          </span>
          <h3 className={cn(s.title, 'font-semibold text-slate-900')}>{title}</h3>
          <p className={cn(s.text, 'text-sm leading-6 text-slate-600')}>{text}</p>
        </li>
      ))}
    </ul>
  );
}
