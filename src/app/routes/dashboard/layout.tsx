import { Dialog, DialogPanel } from '@headlessui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut, PanelLeft } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { DASHBOARD_NAV, titleForPath } from '../../../components/layouts/dashboard-nav';
import { useSidebar } from '../../../components/layouts/use-sidebar';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Tooltip } from '../../../components/ui/tooltip';
import { paths } from '../../../config/paths';
import { AccountGone } from '../../../features/account/components/account-gone';
import { AccountSwitcher } from '../../../features/account/components/account-switcher';
import { dashboardExit, leaveDashboardTo } from '../../../features/auth/dashboard-exit';
import { AUTH_TOASTS } from '../../../features/auth/messages';
import { BillingStateBanner } from '../../../features/billing/billing-banner';
import { SeatBanner } from '../../../features/team/seat-banner';
import { usePageTitle } from '../../../hooks/use-page-title';
import { appCodeOf } from '../../../../server/contracts/error-codes';
import { useTRPC } from '../../../lib/trpc';
import { authClient } from '../../../lib/auth-client';
import { cn } from '../../../lib/cn';

function Logo({ compact }: { compact?: boolean }) {
  // White-label: the account's logo, colour and (Enterprise) product name.
  const trpc = useTRPC();
  const brand = useQuery({ ...trpc.branding.current.queryOptions(), staleTime: 60_000 }).data;
  const name = brand?.productName ?? 'Mailvet';
  return (
    <Link to={paths.home} className="flex items-center gap-2 px-1 font-semibold text-slate-900" aria-label={`${name} home`} data-testid="brand">
      {brand?.logoUrl ? (
        <img src={brand.logoUrl} alt="" className="size-8 shrink-0 rounded-lg object-contain" />
      ) : (
        <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-brand-600 text-sm font-bold text-white" style={brand?.brandColor ? { background: brand.brandColor } : undefined}>
          {name.charAt(0).toUpperCase()}
        </span>
      )}
      {!compact && <span className="text-lg" style={brand?.brandColor ? { color: brand.brandColor } : undefined}>{name}</span>}
    </Link>
  );
}

function NavList({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  return (
    <nav aria-label="Dashboard" className="flex flex-col gap-0.5">
      {DASHBOARD_NAV.map((item) => {
        const link = (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.end}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'flex h-9 items-center gap-3 rounded-md px-2.5 text-sm font-medium transition-colors',
                isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                compact && 'w-full justify-center px-0',
              )
            }
          >
            <item.icon className="size-4 shrink-0" aria-hidden />
            <span className={cn(compact && 'sr-only')}>{item.label}</span>
          </NavLink>
        );
        // As icons, each link shows its label beside the rail on hover and on keyboard focus (a
        // title attribute showed it to mouse users only).
        return compact ? (
          <Tooltip key={item.to} content={item.label} side="right" floating wrapperClassName="flex">
            {link}
          </Tooltip>
        ) : (
          link
        );
      })}
    </nav>
  );
}

/**
 * The session could not be checked (a 5xx or no answer, not "signed out": better-auth answers that
 * with 200 and no session). Sending a signed-in user to the sign-in page would be wrong; say so and
 * let them try again.
 */
function SessionCheckFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div role="alert" className="max-w-md space-y-4 rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <p className="font-semibold text-slate-900">Could not check your sign-in.</p>
        <p className="text-sm text-slate-600">Check your connection and try again. You have not been signed out.</p>
        <Button onClick={onRetry} loading={retrying}>
          Try again
        </Button>
      </div>
    </div>
  );
}

/**
 * A new page (another path: a sidebar link, a button, Back) takes the focus to its main region,
 * which is named by the page's heading: a screen reader announces the page, and the next Tab is in
 * the page instead of further down the sidebar (focus stayed on the link clicked). Not on the first
 * page shown (the first Tab is still 'Skip to content') nor when only the query changes (a tab of
 * the page, ?tab=). No ring is drawn (main has no outline). The phone's navigation drawer, closing,
 * gives focus back to its menu button only while focus is still in the drawer or nowhere.
 */
function useFocusNewPage(pathname: string) {
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.getElementById('main');
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [pathname]);
}

export default function DashboardLayout() {
  const { data: session, isPending, error: sessionError, refetch: refetchSession, isRefetching } = authClient.useSession();
  const sidebar = useSidebar();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);
  const trpc = useTRPC();
  // The tab names the page (history entries, bookmarks, a screen reader's announcement) and the
  // product: an Enterprise account's own name once its brand is known, never Mailvet flashing first.
  const brand = useQuery({ ...trpc.branding.current.queryOptions(), staleTime: 60_000, enabled: !!session });
  usePageTitle(session && !brand.isPending ? titleForPath(location.pathname) : null, brand.data?.productName ?? 'Mailvet');
  // Signed in again: a later loss of the session sends the visitor to /auth, not home.
  useEffect(() => {
    if (session) leaveDashboardTo(null);
  }, [session]);
  // Left the dashboard (home after Sign Out or Delete Account): the leaving is over, so a later
  // dashboard link, Back or Forward without a session goes to /auth again, not home.
  useEffect(() => () => leaveDashboardTo(null), []);
  // The signed-out user's data leaves the cache once the dashboard is gone, not while its page is
  // still shown: emptied under the page, its queries asked again without a session and their 401s
  // showed as the page's 'Error' toast ('Failed to load team data') over the home page. So does a
  // session that ended elsewhere (Sign Out in another tab, a password changed on another device):
  // the next user to sign in in this tab saw the previous one's team, plan and keys from the cache.
  const signedOut = useRef(false);
  const sessionEnded = useRef(false);
  useEffect(() => {
    sessionEnded.current = !session && !isPending;
  }, [session, isPending]);
  useEffect(
    () => () => {
      if (signedOut.current || sessionEnded.current) queryClient.clear();
    },
    [queryClient],
  );
  const me = useQuery({ ...trpc.account.me.queryOptions(), enabled: !!session, retry: (n, err) => appCodeOf(err) !== 'NOT_A_MEMBER' && n < 3 });
  useFocusNewPage(location.pathname);

  if (isPending && !session) {
    return (
      <div className="flex min-h-screen items-center justify-center gap-3 text-slate-600" role="status">
        <Spinner /> Loading...
      </div>
    );
  }
  if (!session && sessionError) return <SessionCheckFailed onRetry={() => void refetchSession()} retrying={isRefetching} />;
  if (!session) return <Navigate to={dashboardExit(location.search)} replace />;

  async function signOut() {
    setSigningOut(true);
    leaveDashboardTo(paths.home);
    const { error } = await authClient.signOut();
    if (error) {
      leaveDashboardTo(null);
      setSigningOut(false);
      toast.error(AUTH_TOASTS.errorTitle, { description: error.message ?? 'Could not sign out' });
      return;
    }
    signedOut.current = true;
    toast.success(AUTH_TOASTS.signedOutTitle, { description: AUTH_TOASTS.signedOutBody });
    navigate(paths.home, { replace: true });
  }

  if (me.error && appCodeOf(me.error) === 'NOT_A_MEMBER') {
    return <AccountGone email={session.user.email} onSignOut={signOut} signingOut={signingOut} />;
  }

  const compact = !sidebar.open;
  return (
    <div className="flex min-h-screen bg-slate-50">
      {/* Keyboard users skip the sidebar and the header (fourteen stops) to the page itself; the URL keeps no #. */}
      <a
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
        className="sr-only rounded-md bg-white text-sm font-medium text-brand-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* Desktop sidebar: 16rem expanded, 3rem as icons. */}
      <aside
        data-state={sidebar.open ? 'expanded' : 'collapsed'}
        style={{ width: compact ? '3rem' : '16rem' }}
        className="sticky top-0 hidden h-screen shrink-0 flex-col gap-4 border-r border-slate-200 bg-white py-4 transition-[width] duration-200 md:flex"
      >
        <div className={cn('px-3', compact && 'px-2')}>
          <Logo compact={compact} />
        </div>
        <div className={cn('flex-1 overflow-y-auto px-2', compact && 'px-1.5')}>
          <NavList compact={compact} />
        </div>
      </aside>

      {/* Mobile drawer: 18rem under 768 px. */}
      <Dialog open={sidebar.isMobile && sidebar.mobileOpen} onClose={() => sidebar.setMobileOpen(false)} aria-label="Navigation" className="relative z-50 md:hidden">
        <div className="fixed inset-0 bg-slate-900/40" aria-hidden />
        <DialogPanel data-testid="sidebar-drawer" style={{ width: '18rem' }} className="fixed inset-y-0 left-0 flex flex-col gap-4 bg-white p-4 shadow-xl">
          <Logo />
          <NavList compact={false} onNavigate={() => sidebar.setMobileOpen(false)} />
        </DialogPanel>
      </Dialog>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-10 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur">
          <Button variant="ghost" size="icon" onClick={sidebar.toggle} aria-label="Toggle sidebar" title="Toggle sidebar (Ctrl+B)">
            <PanelLeft className="size-4" aria-hidden />
          </Button>
          {/* Phones: the email on a second line under the title; wider: beside Sign Out, shortened
              before the title is (at 768 px with the sidebar open the title was cut to 'Te…'). */}
          <div className="min-w-0 flex-1 sm:flex sm:items-center sm:gap-3">
            <h1 id="page-title" className="truncate text-base font-semibold text-slate-900 sm:shrink-0">{titleForPath(location.pathname)}</h1>
            <span className="block truncate text-xs text-slate-600 sm:ml-auto sm:max-w-[16rem] sm:text-sm" title={session.user.email} data-testid="user-email">
              {session.user.email}
            </span>
          </div>
          <AccountSwitcher />
          <Button variant="outline" size="sm" className="shrink-0" onClick={signOut} loading={signingOut}>
            <LogOut className="size-4" aria-hidden /> Sign Out
          </Button>
        </header>
        <main id="main" tabIndex={-1} aria-labelledby="page-title" className="flex-1 p-4 outline-none md:p-8">
          {location.pathname !== paths.dashboard.billing && <BillingStateBanner />}
          <SeatBanner />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
