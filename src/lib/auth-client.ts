import { createAuthClient } from 'better-auth/react';
import { organizationClient, twoFactorClient } from 'better-auth/client/plugins';

export const authClient = createAuthClient({
  basePath: '/api/auth',
  // Sessions refresh while in use; polling notices a session that ended elsewhere (sign-out in
  // another tab, expiry, deletion) so the dashboard can send the user to /auth.
  sessionOptions: { refetchInterval: 60, refetchOnWindowFocus: true },
  plugins: [
    organizationClient(),
    twoFactorClient({
      onTwoFactorRedirect() {
        window.location.assign('/auth?step=2fa');
      },
    }),
  ],
});

export type AuthSession = typeof authClient.$Infer.Session;
