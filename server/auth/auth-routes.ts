// The better-auth routes the product really calls over HTTP, and nothing else. Every other path
// under /api/auth answers 404, a listed path under another method 405 (server/http/auth-guard.ts), so a route a plugin adds on upgrade, or
// one the product does not use (organization management, delete-user, list-sessions …), is
// unreachable until it is listed here on purpose. Server-side calls (auth.api.*) are not HTTP and
// do not pass through this list: the team service drives invitations through them, behind the
// team router's role, plan and mail rules.
//
// Who calls what (grep src/ for authClient, tests/ for /api/auth):
//   SPA auth page      POST sign-up/email, POST sign-in/email, POST two-factor/verify-totp,
//                      POST request-password-reset, POST reset-password
//   SPA everywhere     GET get-session (useSession, getSession), POST sign-out
//   SPA settings       POST change-password, POST two-factor/enable, POST two-factor/disable
//   mail links         GET verify-email?token=…, GET reset-password/{token}?callbackURL=…
//   backup codes       POST two-factor/verify-backup-code (the codes Settings hands out)
//   resend             POST send-verification-email (sign-in also resends it: sendOnSignIn)

/** better-auth reads the client IP from this header only; the guard sets it from Express's req.ip. */
export const CLIENT_IP_HEADER = 'x-mailvet-client-ip';
/** The host the request came to (Express's req.hostname, per TRUST_PROXY), for white-label mails and origins. */
export const CLIENT_HOST_HEADER = 'x-mailvet-client-host';
/** When Express received the request (performance.now() of this process), for answers padded to a floor. */
export const RECEIVED_AT_HEADER = 'x-mailvet-received-at';

export interface AuthRoute {
  method: 'GET' | 'POST';
  /** Path below /api/auth; `:param` matches one path segment. */
  path: string;
}

export const ALLOWED_AUTH_ROUTES: readonly AuthRoute[] = [
  { method: 'POST', path: '/sign-up/email' },
  { method: 'POST', path: '/sign-in/email' },
  { method: 'POST', path: '/sign-out' },
  { method: 'GET', path: '/get-session' },
  { method: 'GET', path: '/verify-email' },
  { method: 'POST', path: '/send-verification-email' },
  { method: 'POST', path: '/request-password-reset' },
  { method: 'GET', path: '/reset-password/:token' },
  { method: 'POST', path: '/reset-password' },
  { method: 'POST', path: '/change-password' },
  { method: 'POST', path: '/two-factor/enable' },
  { method: 'POST', path: '/two-factor/disable' },
  { method: 'POST', path: '/two-factor/verify-totp' },
  { method: 'POST', path: '/two-factor/verify-backup-code' },
];

const SEGMENT = /^[A-Za-z0-9_-]{1,512}$/;

function matchesPath(route: AuthRoute, path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const parts = clean.split('/');
  const want = route.path.split('/');
  if (want.length !== parts.length) return false;
  return want.every((w, i) => (w.startsWith(':') ? SEGMENT.test(parts[i]!) : w === parts[i]));
}

/** True when `method path` (path below /api/auth, no query) is on the list. */
export function isAllowedAuthRoute(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return ALLOWED_AUTH_ROUTES.some((r) => r.method === m && matchesPath(r, path));
}

/**
 * The methods a listed path takes (a GET route also HEAD), for a 405's Allow header; empty when the
 * path is on no route (a 404: the list names nothing a caller could not already find).
 */
export function allowedAuthMethods(path: string): string[] {
  const methods = new Set(ALLOWED_AUTH_ROUTES.filter((r) => matchesPath(r, path)).map((r) => r.method));
  return (['GET', 'HEAD', 'POST'] as const).filter((m) => methods.has(m === 'HEAD' ? 'GET' : m));
}
