// Opaque page cursors for /v1 lists: base64url of a small JSON value the server reads back and
// checks. A cursor that is not one of ours is a 400, never a silently empty page.
import { AppError } from '../../lib/app-error';

const BAD_CURSOR = 'cursor is not valid: pass next_cursor from the previous page.';

export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Decodes a cursor and checks it with `accept` (which returns the typed value, or null). */
export function decodeCursor<T>(cursor: string, accept: (v: Record<string, unknown>) => T | null): T {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw new Error('shape');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('BAD_INPUT', BAD_CURSOR);
  }
  const value = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? accept(parsed as Record<string, unknown>) : null;
  if (value === null) throw new AppError('BAD_INPUT', BAD_CURSOR);
  return value;
}
