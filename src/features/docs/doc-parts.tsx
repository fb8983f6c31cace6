// The Documentation page's building blocks: headings, paragraphs and reference tables, shared by
// the Quick Start, API Reference, Examples and Best Practices tabs.
import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A section heading (an anchor target: it clears the sticky header). */
export function H2({ id, className, children }: { id?: string; className?: string; children: ReactNode }) {
  return (
    <h2 id={id} className={cn('scroll-mt-6 text-xl font-semibold tracking-tight text-slate-900', className)}>
      {children}
    </h2>
  );
}

export function H3({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <h3 id={id} className="scroll-mt-6 text-base font-semibold text-slate-900">
      {children}
    </h3>
  );
}

export function P({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={cn('text-sm leading-7 text-slate-600', className)}>{children}</p>;
}

/** A reference table of the docs: a caption (for screen readers unless styled), column headers, then the rows given. */
export function DocTable({
  caption,
  captionClassName = 'sr-only',
  columns,
  children,
}: {
  caption: string;
  captionClassName?: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200">
      <table className="w-full text-left text-sm">
        <caption className={captionClassName}>{caption}</caption>
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className="px-4 py-2.5 font-semibold">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** A boxed note: information (brand) or a warning (amber). */
export function Callout({ icon: Icon = AlertTriangle, tone = 'info', children }: { icon?: typeof AlertTriangle; tone?: 'info' | 'warning'; children: ReactNode }) {
  return (
    <div
      className={cn(
        'flex gap-3 rounded-xl border p-4 text-sm leading-6',
        tone === 'warning' ? 'border-amber-200 bg-amber-50 text-amber-900' : 'border-brand-100 bg-brand-50/60 text-slate-700',
      )}
    >
      <Icon className={cn('mt-0.5 size-4 shrink-0', tone === 'warning' ? 'text-amber-600' : 'text-brand-600')} aria-hidden="true" />
      <div>{children}</div>
    </div>
  );
}

/** The opening of a tab: its heading and the paragraphs under it. */
export function TabIntro({ title, id, children }: { title: string; id?: string; children: ReactNode }) {
  return (
    <div className="space-y-3">
      <H2 id={id}>{title}</H2>
      {children}
    </div>
  );
}

/** A numbered step of the Quick Start. */
export function Step({ n, title, className, children }: { n: number; title: string; className?: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">{n}</span>
      <div className={cn('min-w-0 flex-1 space-y-2', className)}>
        <H3>{title}</H3>
        {children}
      </div>
    </li>
  );
}
