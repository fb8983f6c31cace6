import { cn } from '../../lib/cn';

export interface Stat {
  value: string;
  label: string;
}

/** `card`: each figure on a white card; `inverse`: bare figures on a dark band. */
const TONE = {
  card: { item: 'rounded-2xl border border-slate-200 bg-white px-3 py-5 shadow-sm sm:p-6', label: 'text-slate-500', value: 'text-brand-600' },
  inverse: { item: '', label: 'text-slate-400', value: 'text-white sm:text-4xl' },
} as const;

/** Key figures, two a row on phones and four on wider screens: the figure above its label ("10,000+" fits a 320 px phone's half). */
export function StatList({ stats, tone, className }: { stats: readonly Stat[]; tone: keyof typeof TONE; className?: string }) {
  const t = TONE[tone];
  return (
    <dl className={cn('grid grid-cols-2 md:grid-cols-4', className)}>
      {stats.map((s) => (
        <div key={s.label} className={cn('flex min-w-0 flex-col gap-1 text-center', t.item)}>
          <dt className={cn('text-sm', t.label)}>{s.label}</dt>
          <dd className={cn('order-first text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl', t.value)}>{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}
