import { useSyncExternalStore } from 'react';
import { Cell, Pie, PieChart, ResponsiveContainer } from 'recharts';
import { formatCount } from './format';

/** Tailwind's `sm` breakpoint: the donut's box is hidden below it. */
const SM_QUERY = '(min-width: 640px)';

function subscribeSm(onChange: () => void) {
  const mql = window.matchMedia(SM_QUERY);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

/** Whether the screen is at least `sm` wide (the donut shows). */
function useSmUp(): boolean {
  return useSyncExternalStore(subscribeSm, () => window.matchMedia(SM_QUERY).matches);
}

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

/** Whole percents that add up to 100 (largest remainder), so 3/2/3 of 8 reads 38/25/37, not 38/25/38. */
function wholePercents(b: Breakdown): Breakdown {
  const total = b.valid + b.invalid + b.risky;
  if (total === 0) return { valid: 0, invalid: 0, risky: 0 };
  const keys = ['valid', 'risky', 'invalid'] as const;
  const exact = keys.map((k) => (b[k] * 100) / total);
  const floors = exact.map(Math.floor);
  let left = 100 - floors.reduce((a, c) => a + c, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((x, y) => y.r - x.r);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return { valid: floors[0]!, risky: floors[1]!, invalid: floors[2]! };
}

/** A job's valid / risky / invalid counts as tiles and a donut chart. */
export function BreakdownPanel({ breakdown }: { breakdown: Breakdown }) {
  const total = breakdown.valid + breakdown.invalid + breakdown.risky;
  const data = SLICES.map((s) => ({ name: s.label, value: breakdown[s.key], color: s.color }));
  const pcts = wholePercents(breakdown);
  // A chart measured in a hidden (0 × 0) box draws nothing and warns in the console: on phones the
  // tiles say it all, so the donut is not drawn at all.
  const showDonut = useSmUp();
  return (
    <section aria-label="Result breakdown" className="grid items-center gap-4 rounded-xl border border-slate-200 bg-slate-50/60 p-3 sm:grid-cols-[1fr_7rem]">
      <dl className="grid grid-cols-3 gap-3">
        {SLICES.map((s) => {
          const n = breakdown[s.key];
          const pct = pcts[s.key];
          return (
            <div key={s.key} className={`rounded-lg px-3 py-2 ring-1 ring-inset ${s.tile}`} data-testid={`breakdown-${s.key}`}>
              <dt className="text-xs font-medium">{s.label}</dt>
              <dd className="flex items-baseline gap-1.5">
                <span className="text-xl font-semibold tabular-nums" data-testid="count">{formatCount(n)}</span>
                <span className="text-xs opacity-80">{pct}%</span>
              </dd>
            </div>
          );
        })}
      </dl>
      {showDonut && (
        <div className="relative h-28" aria-hidden>
          {total > 0 ? (
            <ResponsiveContainer width="100%" height="100%">
              <PieChart>
                <Pie data={data} dataKey="value" nameKey="name" innerRadius="62%" outerRadius="95%" paddingAngle={total > 0 ? 2 : 0} stroke="none" isAnimationActive={false}>
                  {data.map((d) => (
                    <Cell key={d.name} fill={d.color} />
                  ))}
                </Pie>
              </PieChart>
            </ResponsiveContainer>
          ) : (
            <div className="grid h-full place-items-center rounded-full border-8 border-slate-200" />
          )}
          <div className="pointer-events-none absolute inset-0 grid place-items-center text-center">
            <span>
              <span className="block text-base font-semibold text-slate-900 tabular-nums">{formatCount(total)}</span>
              <span className="block text-[10px] text-slate-500">results</span>
            </span>
          </div>
        </div>
      )}
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
