import { UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { PLANS, isUnlimited } from '../../../server/contracts/plans';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Input, fieldClassName } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { paths } from '../../config/paths';
import { cn } from '../../lib/cn';
import { TEAM_TEXT } from './messages';

const TEAM_PLANS = PLANS.filter((p) => p.teamMemberLimit > 1);

export type InviteRole = 'member' | 'admin';

/** Email + role (member or admin, default member). Empty email → 'Please enter an email address'. */
export function InviteDialog({
  open,
  onClose,
  onInvite,
  busy,
}: {
  open: boolean;
  onClose: () => void;
  onInvite: (v: { email: string; role: InviteRole }) => Promise<boolean>;
  busy: boolean;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InviteRole>('member');
  const [error, setError] = useState<string | null>(null);

  function close() {
    setEmail('');
    setRole('member');
    setError(null);
    onClose();
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const trimmed = email.trim();
    if (!trimmed) {
      setError(TEAM_TEXT.enterEmail);
      return;
    }
    setError(null);
    if (await onInvite({ email: trimmed, role })) close();
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Invite Team Member"
      description="We'll email them a link to join this account. They sign in or sign up with this address to accept."
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Invite team member">
        <div className="space-y-1.5">
          <Label htmlFor="invite-email" required>Email</Label>
          <Input
            id="invite-email"
            type="email"
            autoComplete="off"
            placeholder="colleague@company.com"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (error) setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'invite-email-error' : undefined}
            autoFocus
          />
          {error && (
            <p id="invite-email-error" role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="invite-role">Role</Label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as InviteRole)} className={cn(fieldClassName, 'h-10 pr-8')}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
          <p className="text-xs text-slate-500">Admins can also invite and remove members. Members can use the account.</p>
        </div>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close}>Cancel</Button>
          <Button type="submit" loading={busy}>
            <UserPlus className="size-4" aria-hidden /> Send Invitation
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The plan's team size is reached: 'Your current plan allows N team member(s) total'. */
export function UpgradeDialog({ open, limit, planName, onClose }: { open: boolean; limit: number; planName: string | undefined; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={TEAM_TEXT.upgradeTitle}
      description={TEAM_TEXT.upgradeLimit(limit)}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>Not now</Button>
          <Button to={paths.dashboard.billing}>View Plans</Button>
        </>
      }
    >
      <p className="text-sm text-slate-600">
        {planName ? `You're on the ${planName} plan. ` : ''}Members and pending invitations both count towards the limit. Team sizes:{' '}
        {TEAM_PLANS.map((p) => `${p.name} ${isUnlimited(p.teamMemberLimit) ? 'unlimited' : p.teamMemberLimit}`).join(', ')}.
      </p>
    </Dialog>
  );
}
