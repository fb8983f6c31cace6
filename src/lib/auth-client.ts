import { createAuthClient } from 'better-auth/react';
import { twoFactorClient } from 'better-auth/client/plugins';
import { NO_ANSWER_MESSAGE } from './error-message';

const noAnswer = (status: number) =>
  new Response(JSON.stringify({ code: 'NO_ANSWER', message: NO_ANSWER_MESSAGE }), { status, headers: { 'content-type': 'application/json' } });

/**
 * The auth client's fetch. A call that gets no answer from Mailvet — the connection drops (fetch
 * rejects), or a gateway in front of it answers a 5xx with its own page instead of the API's JSON —
 * comes back as `{ error: { message } }` like the server's own refusals, so every auth form shows
 * it in its toast. Without this a dropped connection threw past the forms (the button spun for
 * ever, no toast; Sign Out never showed its 'Error') and a gateway's empty answer read as "Invalid
 * email or password".
 */
export async function authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(input, init);
  } catch (e) {
    if (init?.signal?.aborted) throw e;
    return noAnswer(503);
  }
  if (res.ok || res.status < 500) return res;
  const text = await res.clone().text();
  try {
    JSON.parse(text);
    return res;
  } catch {
    return noAnswer(res.status);
  }
}

export const authClient = createAuthClient({
  basePath: '/api/auth',
  fetchOptions: { customFetchImpl: authFetch },
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
