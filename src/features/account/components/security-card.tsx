import { useQuery } from '@tanstack/react-query';
import { KeyRound, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { SettingRow } from '../../../components/ui/setting-row';
import { useTRPC } from '../../../lib/trpc';
import { ChangePasswordDialog } from './change-password-dialog';
import { DisableTwoFactorDialog, EnableTwoFactorDialog } from './two-factor-dialogs';

export function SecurityCard() {
  const trpc = useTRPC();
  const profile = useQuery(trpc.account.profile.get.queryOptions());
  const [dialog, setDialog] = useState<'password' | 'enable2fa' | 'disable2fa' | null>(null);
  const enabled = profile.data?.two_factor_enabled ?? false;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Security</CardTitle>
        <CardDescription>Your password and two-factor authentication.</CardDescription>
      </CardHeader>
      <CardContent className="divide-y divide-slate-100">
        <SettingRow icon={KeyRound} title="Password" description="Change it regularly; changing it signs out your other devices.">
          <Button variant="outline" onClick={() => setDialog('password')}>
            Change Password
          </Button>
        </SettingRow>
        <SettingRow
          icon={ShieldCheck}
          title={
            <>
              Two-factor authentication
              {/* Not a guess while the profile is on its way: 'Disabled' showed before it was known. */}
              {profile.data && (
                <Badge variant={enabled ? 'success' : 'neutral'} data-testid="twofa-status">
                  {enabled ? 'Enabled' : 'Disabled'}
                </Badge>
              )}
            </>
          }
          description={enabled ? 'Sign-in asks for a code from your authenticator app.' : 'Add a code from an authenticator app to every sign-in.'}
        >
          {enabled ? (
            <Button variant="outline" onClick={() => setDialog('disable2fa')}>
              Disable 2FA
            </Button>
          ) : (
            <Button variant="outline" onClick={() => setDialog('enable2fa')} disabled={profile.isPending}>
              Enable 2FA
            </Button>
          )}
        </SettingRow>
      </CardContent>
      <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      <EnableTwoFactorDialog open={dialog === 'enable2fa'} onClose={() => setDialog(null)} />
      <DisableTwoFactorDialog open={dialog === 'disable2fa'} onClose={() => setDialog(null)} />
    </Card>
  );
}
