import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { FormProblem } from '../../../components/ui/form';
import { ListFailed } from '../../../components/ui/list-states';
import { Spinner } from '../../../components/ui/spinner';
import { useSubmitOnce } from '../../../hooks/use-submit-once';
import { authClient } from '../../../lib/auth-client';
import { useTRPC } from '../../../lib/trpc';
import { SETTINGS_TEXT } from '../messages';

/** Spec "Settings": email read-only; full name and company name editable. */
export function ProfileForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.account.profile.get.queryOptions());
  const [fullName, setFullName] = useState('');
  const [company, setCompany] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (profile.data) {
      setFullName(profile.data.full_name);
      setCompany(profile.data.company_name);
    }
  }, [profile.data]);

  const save = useMutation(
    trpc.account.profile.update.mutationOptions({
      onSuccess(data) {
        setProblem(null);
        queryClient.setQueryData(trpc.account.profile.get.queryKey(), data);
        void queryClient.invalidateQueries({ queryKey: trpc.account.me.queryKey() });
        // The name shows elsewhere too: the team list, and Overview's greeting (from the session).
        void queryClient.invalidateQueries({ queryKey: trpc.team.members.queryKey() });
        void authClient.getSession({ query: { disableCookieCache: true } }).then(() => authClient.$store.notify('$sessionSignal'));
        toast.success(SETTINGS_TEXT.successTitle, { description: SETTINGS_TEXT.profileUpdated });
      },
      onError(err) {
        setProblem(err.data?.httpStatus === 400 ? err.message : null);
        toast.error(SETTINGS_TEXT.errorTitle, { description: SETTINGS_TEXT.profileFailed });
      },
    }),
  );

  // A double-click or a second Enter while saving is ignored (two saves, two toasts).
  const submit = useSubmitOnce<FormEvent<HTMLFormElement>>(async () => {
    // onError tells the user; nothing more to do with the rejection here.
    await save.mutateAsync({ full_name: fullName, company_name: company }).catch(() => undefined);
  });

  const dirty = profile.data ? fullName !== profile.data.full_name || company !== profile.data.company_name : false;

  return (
    <Card>
      <form onSubmit={submit} aria-label="Profile">
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>Your name and company as your team sees them.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          {profile.data ? (
            <>
              <TextField
                id="profile-email"
                label="Email"
                hint="Your sign-in email cannot be changed here."
                className="sm:col-span-2"
                type="email"
                value={profile.data.email}
                readOnly
                aria-readonly="true"
              />
              <TextField
                id="profile-full-name"
                label="Full Name"
                required
                name="full_name"
                autoComplete="name"
                maxLength={200}
                value={fullName}
                onChange={(e) => setFullName(e.target.value)}
              />
              <TextField
                id="profile-company"
                label="Company Name"
                name="company_name"
                autoComplete="organization"
                maxLength={200}
                placeholder="Acme Inc."
                value={company}
                onChange={(e) => setCompany(e.target.value)}
              />
            </>
          ) : (
            !profile.isError && (
              // Not empty fields (and a greyed-out name with no word why) while the profile is on its way.
              <p className="flex items-center gap-2 py-6 text-sm text-slate-600 sm:col-span-2" role="status">
                <Spinner size="sm" label="" /> Loading your profile…
              </p>
            )
          )}
          {profile.isError && !profile.data && (
            // Not empty fields to fill in and save over the real ones: what failed, and a way to try again.
            <div className="sm:col-span-2">
              <ListFailed message="Could not load your profile." onRetry={() => void profile.refetch()} />
            </div>
          )}
          <FormProblem className="sm:col-span-2">{problem}</FormProblem>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" loading={save.isPending} disabled={!dirty && !save.isPending}>
            Save Changes
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
