import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

const WIDTH = { '5xl': 'max-w-5xl', '7xl': 'max-w-7xl' } as const;

/**
 * A titled section of a marketing page: the heading (`id` labels the section), an optional line
 * under it, then the content. `band` sets it on a tinted full-width band with a top border.
 */
export function MarketingSection({
  id,
  title,
  intro,
  center = false,
  band = false,
  width = '7xl',
  children,
}: {
  id: string;
  title: ReactNode;
  intro?: ReactNode;
  center?: boolean;
  band?: boolean;
  width?: keyof typeof WIDTH;
  children: ReactNode;
}) {
  const container = cn('mx-auto px-4 py-20 sm:px-6 lg:px-8', WIDTH[width]);
  const content = (
    <>
      <h2 id={id} className={cn(center && 'text-center', 'text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl')}>
        {title}
      </h2>
      {intro ? <p className="mt-3 max-w-2xl text-slate-600">{intro}</p> : null}
      {children}
    </>
  );
  return band ? (
    <section aria-labelledby={id} className="border-t border-slate-200 bg-slate-50/60">
      <div className={container}>{content}</div>
    </section>
  ) : (
    <section aria-labelledby={id} className={container}>
      {content}
    </section>
  );
}
