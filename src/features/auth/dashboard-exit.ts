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

/** Where the guard sends a visitor without a session. */
export function dashboardExit(): string {
  return leavingTo ?? paths.auth;
}
