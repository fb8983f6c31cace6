// The invitation link is /auth?invitation=<id>. The id has to survive sign-up, the e-mailed
// verification link (possibly opened in another tab) and sign-in: it travels in the callback URL
// and is also kept in localStorage. Signing in then lands on the Team page, which accepts it.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { paths } from '../../config/paths';

const STORAGE_KEY = 'mailvet.pendingInvitation';
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export function rememberInvitation(id: string): void {
  if (!ID_PATTERN.test(id)) return;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ id, at: Date.now() }));
  } catch {
    // Storage unavailable (private mode): the callback URL still carries the id.
  }
}

export function rememberedInvitation(): string | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as { id?: unknown; at?: unknown };
    if (typeof v.id !== 'string' || !ID_PATTERN.test(v.id) || typeof v.at !== 'number' || Date.now() - v.at > MAX_AGE_MS) return null;
    return v.id;
  } catch {
    return null;
  }
}

export function forgetInvitation(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing to forget
  }
}

/** Where a pending invitation is accepted. */
export function invitationLandingPath(id: string): string {
  return `${paths.dashboard.team}?invitation=${encodeURIComponent(id)}`;
}

/** The invitation id of this /auth visit (?invitation=) or one remembered from an earlier visit. */
export function useInvitationId(): string | null {
  const [params] = useSearchParams();
  const fromUrl = params.get('invitation');
  useEffect(() => {
    if (fromUrl) rememberInvitation(fromUrl);
  }, [fromUrl]);
  return fromUrl && ID_PATTERN.test(fromUrl) ? fromUrl : rememberedInvitation();
}

/** Where to go after signing in (or after the verification link): /dashboard, or the Team page that accepts the invitation. */
export function useInvitationLanding(): string {
  const id = useInvitationId();
  return id ? invitationLandingPath(id) : paths.dashboard.root;
}
