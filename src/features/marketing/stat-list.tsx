import { cn } from '../../lib/cn';

export interface Stat {
  value: string;
  label: string;
}

/** `card`: each figure on a white card; `inverse`: bare figures on a dark band. */
const TONE = {
  card: { item: 'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm', label: 'text-slate-500', value: 'text-brand-600' },
  inverse: { item: '', label: 'text-slate-400', value: 'text-white sm:text-4xl' },
} as const;

/** Key figures, two a row on phones and four on wider screens: the figure above its label. */
export function StatList({ stats, tone, className }: { stats: readonly Stat[]; tone: keyof typeof TONE; className?: string }) {
  const t = TONE[tone];
  return (
    <dl className={cn('grid grid-cols-2 md:grid-cols-4', className)}>
      {stats.map((s) => (
        <div key={s.label} className={cn('flex flex-col gap-1 text-center', t.item)}>
          <dt className={cn('text-sm', t.label)}>{s.label}</dt>
          <dd className={cn('order-first text-3xl font-bold tracking-tight', t.value)}>{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}
