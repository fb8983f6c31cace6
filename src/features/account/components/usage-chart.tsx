import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import type { Overview } from '../types';

function dayLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!)).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** Validations per day over the last 30 days (single checks and bulk rows alike). */
export function UsageChart({ days }: { days: Overview['validations_per_day'] | undefined }) {
  const data = (days ?? []).map((d) => ({ ...d, label: dayLabel(d.date) }));
  const total = data.reduce((n, d) => n + d.count, 0);
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between">
        <div>
          <CardTitle>Validations, last 30 days</CardTitle>
          <CardDescription>Single checks and bulk rows per day</CardDescription>
        </div>
        <p className="text-right">
          <span className="block text-2xl font-semibold text-slate-900 tabular-nums">{days ? total.toLocaleString('en-US') : '—'}</span>
          <span className="text-xs text-slate-500">in 30 days</span>
        </p>
      </CardHeader>
      <CardContent>
        <figure aria-label={`Bar chart: ${total} validations in the last 30 days`} className="relative h-56">
          {days && total === 0 && (
            <figcaption className="absolute inset-0 z-10 flex items-center justify-center">
              <span className="rounded-full bg-white/90 px-3 py-1 text-sm text-slate-500 shadow-sm ring-1 ring-slate-200">No validations in the last 30 days</span>
            </figcaption>
          )}
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
              <CartesianGrid vertical={false} stroke="#e2e8f0" />
              <XAxis dataKey="label" tickLine={false} axisLine={false} interval="preserveStartEnd" minTickGap={24} tick={{ fontSize: 12, fill: '#64748b' }} />
              <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={48} tick={{ fontSize: 12, fill: '#64748b' }} />
              <Tooltip
                cursor={{ fill: '#eef2ff' }}
                contentStyle={{ borderRadius: 8, border: '1px solid #e2e8f0', fontSize: 12 }}
                formatter={(value) => [Number(value).toLocaleString('en-US'), 'Validations']}
              />
              <Bar dataKey="count" fill="#4f46e5" radius={[4, 4, 0, 0]} maxBarSize={28} />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      </CardContent>
    </Card>
  );
}
