import { useQuery } from '@tanstack/react-query';
import { MailPlus, TriangleAlert } from 'lucide-react';
import { useTRPC } from '../../lib/trpc';
import { formatDateTime } from '../jobs/format';
import { ROLE_LABELS, TEAM_TEXT } from './messages';
import { useInvitationId } from './use-invitation-landing';

/** On /auth?invitation=…: which team the link is for and with which address to continue. */
export function InvitationNotice() {
  const trpc = useTRPC();
  const invitationId = useInvitationId();
  const preview = useQuery({ ...trpc.team.invitationPreview.queryOptions({ invitationId: invitationId ?? '' }), enabled: invitationId !== null, retry: false });
  const data = preview.data;
  if (!invitationId || !data) return null;
  if (data.status === 'pending') {
    return (
      <div role="status" data-testid="invitation-notice" className="mb-4 flex gap-3 rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm text-brand-900">
        <MailPlus className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden />
        <p>
          You&apos;re invited to join <strong><bdi>{data.accountName}</bdi></strong> as {data.role === 'admin' ? 'an' : 'a'} {ROLE_LABELS[data.role ?? 'member']}. Sign in
          or create an account with <strong><bdi>{data.email}</bdi></strong> to accept.
          {data.expiresAt && ' '}
          {data.expiresAt && <span data-testid="invitation-expiry">{TEAM_TEXT.invitationExpires(formatDateTime(data.expiresAt))}</span>}
        </p>
      </div>
    );
  }
  const text =
    data.status === 'expired'
      ? 'This invitation has expired. Ask your team admin to send a new one.'
      : data.status === 'accepted'
        ? 'This invitation has already been accepted. Sign in to continue.'
        : 'This invitation is no longer valid. Ask your team admin to send a new one.';
  return (
    <div role="status" data-testid="invitation-notice" className="mb-4 flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden />
      <p>{text}</p>
    </div>
  );
}
