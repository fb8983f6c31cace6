// Limits of the dashboard's transport, shared by the server and the SPA's tRPC client.

/** The most calls one tRPC batch request may carry (server: maxBatchSize; SPA: httpBatchLink maxItems). */
export const TRPC_MAX_BATCH_CALLS = 50;
