import { UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { PLANS, isUnlimited } from '../../../server/contracts/plans';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Field, TextField } from '../../components/ui/field';
import { DialogForm } from '../../components/ui/form';
import { Select } from '../../components/ui/select';
import { useFieldState } from '../../hooks/use-field-state';
import { paths } from '../../config/paths';
import { ROLE_LABELS, TEAM_TEXT } from './messages';

const TEAM_PLANS = PLANS.filter((p) => p.teamMemberLimit > 1);

export type InviteRole = 'member' | 'admin';

const ROLE_OPTIONS = (['member', 'admin'] as const).map((value) => ({ value, label: ROLE_LABELS[value] }));

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
  const email = useFieldState('invite-email');
  const [role, setRole] = useState<InviteRole>('member');

  function close() {
    email.setValue('');
    setRole('member');
    email.setError(null);
    onClose();
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const trimmed = email.value.trim();
    if (!trimmed) {
      email.setError(TEAM_TEXT.enterEmail);
      return;
    }
    email.setError(null);
    if (await onInvite({ email: trimmed, role })) close();
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Invite Team Member"
      description="We'll email them a link to join this account. They sign in or sign up with this address to accept."
    >
      <DialogForm
        onSubmit={submit}
        noValidate
        aria-label="Invite team member"
        onCancel={close}
        submitLabel={
          <>
            <UserPlus className="size-4" aria-hidden /> Send Invitation
          </>
        }
        busy={busy}
      >
        <TextField {...email.bind} id="invite-email" label="Email" required error={email.error} errorAlert type="email" autoComplete="off" placeholder="colleague@company.com" autoFocus />
        <Field id="invite-role" label="Role" hint="Admins can also invite and remove members. Members can use the account.">
          <Select id="invite-role" value={role} onValueChange={setRole} options={ROLE_OPTIONS} />
        </Field>
      </DialogForm>
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
        {planName ? `You're on the ${planName} plan. ` : ''}Every member, the owner included, takes a seat; an invitation takes one when it is accepted. Team sizes:{' '}
        {TEAM_PLANS.map((p) => `${p.name} ${isUnlimited(p.teamMemberLimit) ? 'unlimited' : p.teamMemberLimit}`).join(', ')}.
      </p>
    </Dialog>
  );
}
