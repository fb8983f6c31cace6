import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type CSSProperties, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { ArrowLeft, MailCheck, TriangleAlert } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { PasswordField } from '../../components/ui/password-input';
import { Tabs, TabsList, TabsPanel, TabsPanels, TabsTrigger } from '../../components/ui/tabs';
import { paths } from '../../config/paths';
import { AUTH_TOASTS, serverMessage, TWO_FACTOR_EXPIRED_CODE } from '../../features/auth/messages';
import { ForgotPasswordForm, ResetPasswordForm } from '../../features/auth/password-reset';
import { InvitationNotice } from '../../features/team/invitation-notice';
import { useInvitationId, useInvitationLanding } from '../../features/team/use-invitation-landing';
import { usePageTitle } from '../../hooks/use-page-title';
import { useSubmitOnce } from '../../hooks/use-submit-once';
import { useTabParam } from '../../hooks/use-tab-param';
import { authClient } from '../../lib/auth-client';
import { useTRPC } from '../../lib/trpc';

interface PublicBrand {
  productName?: string;
  brandColor?: string | null;
  logoUrl?: string | null;
  domain?: string;
}

/** White-label: the brand of the verified custom domain this page is served on (by Host), or {} on the app's own host. */
function usePublicBrand() {
  return useQuery({
    queryKey: ['public-branding', window.location.host],
    queryFn: async (): Promise<PublicBrand> => {
      const res = await fetch('/api/public-branding', { credentials: 'omit' });
      return res.ok ? ((await res.json()) as PublicBrand) : {};
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Tints the page's brand colour variables (buttons, links, focus rings) with the custom domain's colour. */
function brandStyle(color: string | null | undefined): CSSProperties | undefined {
  if (!color || !/^#[0-9a-fA-F]{6}$/.test(color)) return undefined;
  return {
    '--color-brand-50': `color-mix(in srgb, ${color} 8%, white)`,
    '--color-brand-100': `color-mix(in srgb, ${color} 16%, white)`,
    '--color-brand-200': `color-mix(in srgb, ${color} 30%, white)`,
    '--color-brand-300': `color-mix(in srgb, ${color} 45%, white)`,
    '--color-brand-400': `color-mix(in srgb, ${color} 65%, white)`,
    '--color-brand-500': `color-mix(in srgb, ${color} 85%, white)`,
    '--color-brand-600': color,
    '--color-brand-700': `color-mix(in srgb, ${color} 85%, black)`,
    '--color-brand-800': `color-mix(in srgb, ${color} 70%, black)`,
    '--color-brand-900': `color-mix(in srgb, ${color} 55%, black)`,
  } as CSSProperties;
}

/** The address typed on either tab, so switching between Sign In and Sign Up keeps it (never the password). */
interface SharedEmail {
  email: string;
  onEmail: (email: string) => void;
}

function SignInForm({ onTwoFactor, onForgot, email, onEmail }: { onTwoFactor: () => void; onForgot: () => void } & SharedEmail) {
  const navigate = useNavigate();
  const landing = useInvitationLanding();
  const [busy, setBusy] = useState(false);
  // A double-click or a second Enter while signing in is ignored (two sign-ins, two toasts).
  const submit = useSubmitOnce(async (e: FormEvent<HTMLFormElement>) => {
    const form = new FormData(e.currentTarget);
    setBusy(true);
    const { data, error } = await authClient.signIn.email({ email: String(form.get('email')), password: String(form.get('password')) });
    setBusy(false);
    if (error) {
      toast.error(AUTH_TOASTS.loginFailed, { description: serverMessage(error, 'Invalid email or password') });
      return;
    }
    if (data && 'twoFactorRedirect' in data && data.twoFactorRedirect) {
      onTwoFactor();
      return;
    }
    toast.success(AUTH_TOASTS.welcomeTitle, { description: AUTH_TOASTS.welcomeBody });
    navigate(landing, { replace: true });
  });
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Sign in">
      <div className="space-y-1.5">
        <Label htmlFor="signin-email" required>Email</Label>
        <Input id="signin-email" name="email" type="email" autoComplete="email" required placeholder="you@company.com" defaultValue={email} onChange={(e) => onEmail(e.target.value)} />
      </div>
      <PasswordField
        id="signin-password"
        label="Password"
        aside={<button type="button" onClick={onForgot} className="text-xs font-medium text-brand-600 hover:underline">Forgot password?</button>}
        name="password"
        autoComplete="current-password"
        required
      />
      <Button type="submit" className="w-full" loading={busy}>Sign In</Button>
    </form>
  );
}

function SignUpForm({ email: typed, onEmail }: SharedEmail) {
  const landing = useInvitationLanding();
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  // A double-click or a second Enter while signing up is ignored (one sign-up, one toast).
  const submit = useSubmitOnce(async (e: FormEvent<HTMLFormElement>) => {
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const email = String(form.get('email'));
    setBusy(true);
    const { error } = await authClient.signUp.email({
      name: String(form.get('fullName')).trim(),
      email,
      password: String(form.get('password')),
      callbackURL: landing,
    });
    setBusy(false);
    if (error) {
      toast.error(AUTH_TOASTS.signupFailed, { description: serverMessage(error, 'Could not create your account') });
      return;
    }
    toast.success(AUTH_TOASTS.checkEmailTitle, { description: AUTH_TOASTS.checkEmailBody, duration: 6000 });
    formEl.reset();
    setSentTo(email);
  });
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Sign up">
      {sentTo && (
        <p role="status" className="flex gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-800">
          <MailCheck className="size-4 shrink-0" aria-hidden /> We sent a verification link to {sentTo}. Follow it to activate your account.
        </p>
      )}
      <div className="space-y-1.5">
        <Label htmlFor="signup-name" required>Full Name</Label>
        <Input id="signup-name" name="fullName" autoComplete="name" required maxLength={200} placeholder="Jane Cooper" />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="signup-email" required>Email</Label>
        <Input id="signup-email" name="email" type="email" autoComplete="email" required placeholder="you@company.com" defaultValue={typed} onChange={(e) => onEmail(e.target.value)} />
      </div>
      <PasswordField id="signup-password" label="Password" hint="At least 6 characters." name="password" autoComplete="new-password" required minLength={6} />
      <Button type="submit" className="w-full" loading={busy}>Create Account</Button>
      <p className="text-center text-xs text-slate-500">500 free validations. No card required.</p>
    </form>
  );
}

function TwoFactorForm({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const landing = useInvitationLanding();
  const [busy, setBusy] = useState(false);
  // A double-click or a second Enter while checking is ignored: the code, once used, would answer 'Login Failed'.
  const submit = useSubmitOnce(async (e: FormEvent<HTMLFormElement>) => {
    const code = String(new FormData(e.currentTarget).get('code')).replace(/\s/g, '');
    setBusy(true);
    const { error } = await authClient.twoFactor.verifyTotp({ code });
    setBusy(false);
    if (error) {
      toast.error(AUTH_TOASTS.loginFailed, { description: serverMessage(error, 'Invalid verification code') });
      // No pending sign-in left to finish: back to the email and password form.
      if (error.code === TWO_FACTOR_EXPIRED_CODE) onCancel();
      return;
    }
    toast.success(AUTH_TOASTS.welcomeTitle, { description: AUTH_TOASTS.welcomeBody });
    navigate(landing, { replace: true });
  });
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Two-factor verification">
      <p className="text-sm text-slate-600">Enter the 6-digit code from your authenticator app.</p>
      <div className="space-y-1.5">
        <Label htmlFor="totp-code" required>Verification code</Label>
        <Input id="totp-code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" required autoFocus />
      </div>
      <Button type="submit" className="w-full" loading={busy}>Verify</Button>
      <Button variant="ghost" className="w-full" onClick={onCancel}>Back to sign in</Button>
    </form>
  );
}

/** The tabs' names in the address: /auth is Sign In, /auth?tab=signup Sign Up. */
const AUTH_TABS = ['signin', 'signup'] as const;

export default function AuthRoute() {
  const { data: session, isPending, refetch } = authClient.useSession();
  // Only the first check hides the page: better-auth marks every later one (on focus, after a sign-up)
  // pending again while nobody is signed in, and the forms must not lose what was typed then.
  const [answered, setAnswered] = useState(false);
  // The address typed on either tab; until the visitor types one, an invitation link's invited address
  // (the one its notice asks for), so the invitee does not retype it.
  const [typedEmail, setEmail] = useState<string | null>(null);
  const trpc = useTRPC();
  const invitationId = useInvitationId();
  const invitation = useQuery({ ...trpc.team.invitationPreview.queryOptions({ invitationId: invitationId ?? '' }), enabled: invitationId !== null, retry: false });
  const email = typedEmail ?? (invitation.data?.status === 'pending' ? (invitation.data.email ?? '') : '');
  useEffect(() => {
    if (!isPending) setAnswered(true);
  }, [isPending]);
  const [params, setParams] = useSearchParams();
  const step = params.get('step');
  const [tab, setTab] = useTabParam(AUTH_TABS);
  const landing = useInvitationLanding();
  const brand = usePublicBrand();
  const b = brand.data ?? {};
  const branded = Boolean(b.domain);
  const name = b.productName ?? 'Mailvet';
  // On a custom domain the tab carries only its product name (set once its brand is known).
  usePageTitle(brand.isPending || branded ? null : 'Sign In');
  useEffect(() => {
    if (branded) document.title = name;
  }, [branded, name]);
  // A password reset link is for whoever holds the mailbox, signed in here or not (the password may
  // be forgotten on this device too): it shows its form instead of sending a signed-in visitor on.
  if (!isPending && session && step !== 'reset') return <Navigate to={landing} replace />;
  // Until the first session check answers (a signed-in visitor is sent on to the dashboard), on a
  // custom domain its brand is known, and an invitation link's address is known: an empty page, not a sign-in form or Mailvet's brand that
  // flashes and goes.
  if ((isPending && !answered) || brand.isPending || (invitationId !== null && invitation.isPending)) return <main className="min-h-screen bg-white" aria-busy="true" />;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-white px-4 py-12" style={brandStyle(b.brandColor)} data-testid="auth-page" data-branded={branded ? 'true' : undefined}>
      <div className="w-full max-w-md">
        {branded ? (
          <div className="mb-6 flex items-center gap-2 font-semibold text-slate-900" data-testid="auth-brand">
            {b.logoUrl ? (
              <img src={b.logoUrl} alt={`${name} logo`} className="h-10 max-w-40 object-contain" />
            ) : (
              <span className="grid size-10 place-items-center rounded-lg bg-brand-600 text-lg font-bold text-white" aria-hidden>{name.charAt(0).toUpperCase()}</span>
            )}
            <span className="text-xl text-brand-700">{name}</span>
          </div>
        ) : (
          <Link to={paths.home} className="mb-6 inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-900">
            <ArrowLeft className="size-4" aria-hidden /> Back to home
          </Link>
        )}
        <InvitationNotice />
        {params.get('link') === 'invalid' && (
          <p role="alert" data-testid="verify-link-failed" className="mb-4 flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
            <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden />
            {AUTH_TOASTS.verifyLinkFailed}
          </p>
        )}
        <Card>
          <CardHeader>
            <CardTitle className="text-2xl">Welcome to {name}</CardTitle>
            <CardDescription>Sign in to your account or create a new one.</CardDescription>
          </CardHeader>
          <CardContent>
            {step === '2fa' ? (
              <TwoFactorForm onCancel={() => setParams({})} />
            ) : step === 'forgot' ? (
              <ForgotPasswordForm onBack={() => setParams({})} />
            ) : step === 'reset' ? (
              <ResetPasswordForm
                token={params.get('token')}
                invalid={params.get('error') === 'INVALID_TOKEN'}
                onDone={async () => {
                  // The reset signed every session out on the server: ask again first, so this page
                  // shows Sign In rather than passing through the dashboard.
                  await refetch();
                  setParams({});
                }}
              />
            ) : (
              <Tabs selectedIndex={tab} onChange={setTab}>
                <TabsList aria-label="Sign in or sign up" className="grid w-full grid-cols-2">
                  <TabsTrigger>Sign In</TabsTrigger>
                  <TabsTrigger>Sign Up</TabsTrigger>
                </TabsList>
                <TabsPanels className="mt-6">
                  <TabsPanel><SignInForm onTwoFactor={() => setParams({ step: '2fa' })} onForgot={() => setParams({ step: 'forgot' })} email={email} onEmail={setEmail} /></TabsPanel>
                  <TabsPanel><SignUpForm email={email} onEmail={setEmail} /></TabsPanel>
                </TabsPanels>
              </Tabs>
            )}
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
