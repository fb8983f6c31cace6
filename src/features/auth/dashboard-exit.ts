// Where the dashboard's guard sends a visitor whose session is gone: the sign-in page, or home while
// the user is leaving on purpose (Sign Out, Delete Account). On purpose, the session can end before
// the navigation home has finished — a background query answering 401 re-reads the session, or the
// account is deleted on the server before its answer arrives — and the guard's /auth must not win.
import { paths } from '../../config/paths';

let leavingTo: string | null = null;

/** The user is leaving for `path` (null: not leaving any more, e.g. the sign-out or delete failed). */
export function leaveDashboardTo(path: string | null): void {
  leavingTo = path;
}

/** The sign-in page's query that says an email verification link failed (read by routes/auth.tsx). */
const VERIFY_LINK_FAILED = 'link=invalid';

/**
 * Where the guard sends a visitor without a session. A verification link that failed (expired or
 * mangled: better-auth returns to its callback, /dashboard, with ?error=INVALID_TOKEN) leads to the
 * sign-in page with a note saying so, not to a bare sign-in form.
 */
export function dashboardExit(search = ''): string {
  if (leavingTo) return leavingTo;
  return new URLSearchParams(search).has('error') ? `${paths.auth}?${VERIFY_LINK_FAILED}` : paths.auth;
}
