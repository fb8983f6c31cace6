// Spec section 8 toast texts for authentication.
export const AUTH_TOASTS = {
  signupFailed: 'Signup Failed',
  loginFailed: 'Login Failed',
  checkEmailTitle: 'Check Your Email!',
  checkEmailBody: "We've sent you a verification link. Please check your email to activate your account.",
  welcomeTitle: 'Welcome Back!',
  welcomeBody: 'Successfully logged in.',
  signedOutTitle: 'Signed Out',
  signedOutBody: 'You have been successfully signed out.',
  errorTitle: 'Error',
  resetSentBody: "If an account exists for that address, we've sent a link to reset your password.",
  passwordUpdatedTitle: 'Password Updated',
  passwordUpdatedBody: 'You can now sign in with your new password.',
  twoFactorExpired: 'Your sign-in has expired. Please sign in again with your email and password.',
  verifyLinkFailed: "This verification link is invalid or has expired. Sign in with your email and password and we'll email you a new one.",
} as const;

/** better-auth's code when a two-factor code arrives with no pending sign-in to check it against. */
export const TWO_FACTOR_EXPIRED_CODE = 'INVALID_TWO_FACTOR_COOKIE';

/** better-auth errors come as { message, code }; keep the server's message, fall back to a clear one. */
export function serverMessage(error: { message?: string; code?: string } | null | undefined, fallback: string): string {
  if (!error) return fallback;
  if (error.code === 'EMAIL_NOT_VERIFIED') return 'Please verify your email address first. We have sent you a new verification link.';
  // The two-factor step's pending sign-in (a short-lived cookie) is gone: expired, or the code page
  // was reloaded later, bookmarked or opened in another browser. "Invalid two factor cookie" means
  // nothing to a user.
  if (error.code === TWO_FACTOR_EXPIRED_CODE) return AUTH_TOASTS.twoFactorExpired;
  return error.message || fallback;
}
