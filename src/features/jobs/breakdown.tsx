import { Cell, Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';
import { formatCount } from './format';

export interface Breakdown {
  valid: number;
  invalid: number;
  risky: number;
}

const SLICES = [
  { key: 'valid', label: 'Valid', color: '#059669', tile: 'bg-emerald-50 text-emerald-700 ring-emerald-600/15' },
  { key: 'risky', label: 'Risky', color: '#d97706', tile: 'bg-amber-50 text-amber-800 ring-amber-600/15' },
  { key: 'invalid', label: 'Invalid', color: '#dc2626', tile: 'bg-red-50 text-red-700 ring-red-600/15' },
] as const;

/** A job's valid / risky / invalid counts as tiles and a donut chart. */
export function BreakdownPanel({ breakdown }: { breakdown: Breakdown }) {
  const total = breakdown.valid + breakdown.invalid + breakdown.risky;
  const data = SLICES.map((s) => ({ name: s.label, value: breakdown[s.key], color: s.color }));
  return (
    <section aria-label="Result breakdown" className="grid items-center gap-4 rounded-xl border border-slate-200 bg-slate-50/60 p-4 sm:grid-cols-[1fr_10rem]">
      <dl className="grid grid-cols-3 gap-3">
        {SLICES.map((s) => {
          const n = breakdown[s.key];
          const pct = total > 0 ? Math.round((n / total) * 100) : 0;
          return (
            <div key={s.key} className={`rounded-lg px-3 py-2.5 ring-1 ring-inset ${s.tile}`} data-testid={`breakdown-${s.key}`}>
              <dt className="text-xs font-medium">{s.label}</dt>
              <dd className="mt-0.5 text-xl font-semibold tabular-nums">{formatCount(n)}</dd>
              <dd className="text-xs opacity-80">{pct}%</dd>
            </div>
          );
        })}
      </dl>
      <div className="relative h-40" aria-hidden>
        {total > 0 ? (
          <ResponsiveContainer width="100%" height="100%">
            <PieChart>
              <Pie data={data} dataKey="value" nameKey="name" innerRadius="62%" outerRadius="95%" paddingAngle={total > 0 ? 2 : 0} stroke="none" isAnimationActive={false}>
                {data.map((d) => (
                  <Cell key={d.name} fill={d.color} />
                ))}
              </Pie>
              <Tooltip formatter={(v) => formatCount(Number(v))} />
            </PieChart>
          </ResponsiveContainer>
        ) : (
          <div className="grid h-full place-items-center rounded-full border-8 border-slate-200" />
        )}
        <div className="pointer-events-none absolute inset-0 grid place-items-center text-center">
          <span>
            <span className="block text-lg font-semibold text-slate-900 tabular-nums">{formatCount(total)}</span>
            <span className="block text-[11px] text-slate-500">results</span>
          </span>
        </div>
      </div>
    </section>
  );
}

/** A thin stacked bar of the same counts, for a list row. */
export function BreakdownBar({ breakdown }: { breakdown: Breakdown }) {
  const total = breakdown.valid + breakdown.invalid + breakdown.risky;
  if (total === 0) return null;
  return (
    <div
      className="flex h-1.5 w-full overflow-hidden rounded-full bg-slate-100"
      role="img"
      aria-label={`${breakdown.valid} valid, ${breakdown.risky} risky, ${breakdown.invalid} invalid`}
    >
      {SLICES.map((s) => (
        <span key={s.key} style={{ width: `${(breakdown[s.key] / total) * 100}%`, backgroundColor: s.color }} />
      ))}
    </div>
  );
}
