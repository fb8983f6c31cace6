import { createAuthClient } from 'better-auth/react';
import { twoFactorClient } from 'better-auth/client/plugins';

export const authClient = createAuthClient({
  basePath: '/api/auth',
  // Sessions refresh while in use; polling notices a session that ended elsewhere (sign-out in
  // another tab, expiry, deletion) so the dashboard can send the user to /auth.
  sessionOptions: { refetchInterval: 60, refetchOnWindowFocus: true },
  // No organizationClient: team management goes through the team router only (the organization
  // plugin's HTTP routes are not on the server's allowlist, server/auth/auth-routes.ts).
  plugins: [
    twoFactorClient({
      onTwoFactorRedirect() {
        window.location.assign('/auth?step=2fa');
      },
    }),
  ],
});

export type AuthSession = typeof authClient.$Infer.Session;
