// Limits of the dashboard's transport, shared by the server and the SPA's tRPC client.

/** The most calls one tRPC batch request may carry (server: maxBatchSize; SPA: httpBatchLink maxItems). */
export const TRPC_MAX_BATCH_CALLS = 50;

/**
 * The account the page making a dashboard request shows (the SPA sends it with every call). All
 * tabs of a browser share one session and so its active account: after a switch in one tab, a
 * change sent from another tab still showing the old account is refused (ACCOUNT_CHANGED_MESSAGE)
 * instead of being made in the account switched to.
 */
export const ACCOUNT_HEADER = 'x-mailvet-account';

export const ACCOUNT_CHANGED_MESSAGE =
  'You switched to another account in another tab, so nothing was changed here. This page now shows the account you switched to: check it and try again.';

/** The same refusal when the tab's account is one the user no longer works in (removed from its team, or left without a seat). */
export const ACCOUNT_LEFT_MESSAGE =
  'You no longer have access to the account this page showed (you were removed from its team, or its plan has no seat for you), so nothing was changed. This page now shows the account you work in.';
