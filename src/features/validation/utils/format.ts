/** "4,012 days" / "1 day" / "Unknown". */
export function formatDomainAge(days: number | null): string {
  if (days === null) return 'Unknown';
  const n = days.toLocaleString('en-US');
  return `${n} ${days === 1 ? 'day' : 'days'}`;
}

/** The domain of an address (after the last @), or null. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 ? email.slice(at + 1) : null;
}
