// Spec sections 5 and 8: the API Keys screen's texts, verbatim where the spec gives them.
import { API_SCOPE_LABELS, API_SCOPES, type ApiScope } from '../../../server/contracts/api-keys';
export const API_KEYS_TEXT = {
  errorTitle: 'Error',
  loadFailed: 'Failed to load API keys',
  createFailed: 'Failed to create API key',
  revokeFailed: 'Failed to revoke API key',
  createdTitle: 'API Key Created',
  createdBody: "Copy it now: it won't be shown again.",
  // Spec 8's success toasts 'API Key Created, Copied, Revoked', read as 'Schedule Created, Activated…' is.
  copiedTitle: 'API Key Copied',
  secretCopiedTitle: 'Copied',
  copiedBody: 'API key copied to clipboard.',
  secretCopiedBody: 'Webhook signing secret copied to clipboard.',
  copyFailed: 'Could not copy. Select the key and copy it manually.',
  revokedTitle: 'API Key Revoked',
  revokedBody: (name: string) => `“${name}” can no longer be used.`,
} as const;

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** Last use, or 'Never' (spec: last used or 'Never'). */
export function formatLastUsed(iso: string | null): string {
  return iso ? dateTimeFormat.format(new Date(iso)) : 'Never';
}

/** The stored prefix followed by dots: enough to recognise a key, nothing to use. */
export function maskedKey(prefix: string): string {
  return `${prefix}••••••••`;
}

/** "All" for a key holding every scope, else the scopes' labels. */
export function scopesSummary(scopes: readonly ApiScope[]): string {
  if (API_SCOPES.every((s) => scopes.includes(s))) return 'All';
  return scopes.map((s) => API_SCOPE_LABELS[s].label).join(', ');
}
