// PostgreSQL cannot store or compare U+0000 in text, and no valid input holds one: the tRPC
// procedures and better-auth's routes refuse input that does, with this check and this message.

export const NUL_MESSAGE = 'The input cannot contain NUL (\\u0000) characters.';

/** True when a string anywhere in the input (keys included) holds U+0000 (bounded walk). */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v, depth + 1));
}
