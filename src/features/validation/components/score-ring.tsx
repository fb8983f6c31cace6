import { cn } from '../../../lib/cn';

/** The 0–100 deliverability score as a ring with the percent in the middle. */
export function ScoreRing({ score, size = 88 }: { score: number; size?: number }) {
  const stroke = 8;
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  const clamped = Math.max(0, Math.min(100, score));
  const tone = clamped >= 70 ? 'text-emerald-500' : clamped >= 40 ? 'text-amber-500' : 'text-red-500';
  return (
    <div className="relative shrink-0" style={{ width: size, height: size }} role="img" aria-label={`Deliverability score ${clamped}%`}>
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} className="-rotate-90" aria-hidden>
        <circle cx={size / 2} cy={size / 2} r={r} fill="none" strokeWidth={stroke} className="stroke-slate-100" />
        <circle
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          strokeWidth={stroke}
          strokeLinecap="round"
          stroke="currentColor"
          strokeDasharray={c}
          strokeDashoffset={c * (1 - clamped / 100)}
          className={cn('transition-[stroke-dashoffset] duration-500', tone)}
        />
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center" aria-hidden>
        <span className="text-xl font-semibold text-slate-900 tabular-nums">{clamped}%</span>
      </div>
    </div>
  );
}
