import { TRPCClientError } from '@trpc/client';

/** Said when a call got no answer from Mailvet at all and the screen has no text of its own for that. */
export const NO_ANSWER_MESSAGE = 'Mailvet did not answer. Check your connection and try again.';

/**
 * True when a call failed before any answer of the server's came back: the connection dropped
 * (fetch rejects with a TypeError: "Failed to fetch", "Load failed", "NetworkError…"), or something
 * in between (a gateway, a proxy during a deploy) answered with a page that is not the API's JSON, so
 * the tRPC client's error carries no server error shape, only the browser's or the JSON parser's
 * words ("Unexpected token '<'…"). Those words are not the server's message and mean nothing to a user.
 */
export function isNoAnswer(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  if (error instanceof TRPCClientError) return error.shape === undefined;
  return false;
}

/**
 * The server's message of a failed tRPC/fetch call, or the screen's fallback (spec section 8: "server
 * message or '…'") when it carries none or never got an answer from the server.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (isNoAnswer(error)) return fallback;
  if (error && typeof error === 'object' && 'message' in error) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return fallback;
}
