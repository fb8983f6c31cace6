import { useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useTRPC } from '../../lib/trpc';
import { TEAM_TEXT } from './messages';

/** Dashboard-wide notice for a member of a team whose plan fell below its size: they have no seat there now. */
export function SeatBanner() {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions());
  const seatless = me.data?.seatless ?? [];
  if (seatless.length === 0) return null;
  return (
    <div role="status" data-testid="seat-banner" className="mb-6 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <Users className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
      <div>
        {seatless.map((t) => (
          <p key={t.accountId}>{TEAM_TEXT.seatlessNotice(t.name, t.limit)}</p>
        ))}
      </div>
    </div>
  );
}
