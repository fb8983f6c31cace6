import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { SettingRow } from '../../../components/ui/setting-row';
import { paths } from '../../../config/paths';
import { authClient } from '../../../lib/auth-client';
import { leaveDashboardTo } from '../../auth/dashboard-exit';
import { DeleteAccountDialog } from './delete-account-dialog';

export function DangerZone() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function signOut() {
    setSigningOut(true);
    // Leave the dashboard first, and tell its guard where we are going: once the session ends, it
    // would otherwise send us to /auth, racing (and beating) the navigation home.
    leaveDashboardTo(paths.home);
    await navigate(paths.home);
    const { error } = await authClient.signOut();
    setSigningOut(false);
    if (error) {
      leaveDashboardTo(null);
      toast.error('Error', { description: error.message ?? 'Could not sign out' });
      return;
    }
    queryClient.clear();
    toast.success('Signed Out', { description: 'You have been successfully signed out.' });
  }

  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardTitle className="text-red-700">Danger Zone</CardTitle>
        <CardDescription>Sign out of this device, or delete your account for good.</CardDescription>
      </CardHeader>
      <CardContent className="divide-y divide-red-100">
        <SettingRow title="Sign out" description="End your session on this device.">
          <Button variant="outline" onClick={signOut} loading={signingOut}>
            <LogOut className="size-4" aria-hidden /> Sign Out
          </Button>
        </SettingRow>
        <SettingRow title="Delete account" description="Permanently delete your account and its data. This cannot be undone.">
          <Button variant="destructive" onClick={() => setDeleting(true)}>
            <Trash2 className="size-4" aria-hidden /> Delete Account
          </Button>
        </SettingRow>
      </CardContent>
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </Card>
  );
}
