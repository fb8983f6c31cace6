// API keys: the shapes the dashboard and the server share (spec sections 3, 5 and 7).
import { z } from 'zod';
import { TEXT_CONTROLS } from './text-controls';

export const API_KEY_NAME_REQUIRED = 'Please enter a name for the API key';
export const API_KEY_NAME_MAX = 100;

/**
 * What a key may call on /v1. Every /v1 route declares exactly one (server/rest/rest-procedures.ts);
 * keys made before scopes existed hold them all.
 */
export const API_SCOPES = ['validate', 'bulk', 'results', 'account'] as const;
export const apiScopeSchema = z.enum(API_SCOPES, { error: `Scopes must be among: ${API_SCOPES.join(', ')}.` });
export type ApiScope = z.infer<typeof apiScopeSchema>;

/** For the create dialog and the documentation: each names every route its scope opens (tests/integration/docs.reference.test.ts). */
export const API_SCOPE_LABELS: Record<ApiScope, { label: string; description: string }> = {
  validate: { label: 'Validate', description: 'POST /v1/validate and POST /v1/estimate: single real-time checks and free list estimates.' },
  bulk: { label: 'Bulk', description: 'POST /v1/bulk, POST /v1/bulk-validate and POST /v1/jobs/{id}/cancel: start and cancel bulk jobs.' },
  results: { label: 'Read results', description: 'GET /v1/jobs, GET /v1/jobs/{id} and GET /v1/jobs/{id}/results: job status and results.' },
  account: { label: 'Account', description: 'GET /v1/account: plan, credits and this key.' },
};

export const TEST_KEY_PREFIX = 'mv_test_';
export const LIVE_KEY_PREFIX = 'mv_live_';

export const createApiKeyInput = z.object({
  name: z
    .string({ error: API_KEY_NAME_REQUIRED })
    .trim()
    .min(1, API_KEY_NAME_REQUIRED)
    .max(API_KEY_NAME_MAX, `API key names can be at most ${API_KEY_NAME_MAX} characters.`)
    // Shown to the whole team (the revoke confirmation names the key beside its prefix): no control or
    // text-direction character (U+202E drew the prefix after it backwards), as schedule and file names.
    .refine((s) => !TEXT_CONTROLS.test(s), 'API key names cannot contain control characters or text-direction characters.'),
  /** Default: every scope. */
  scopes: z
    .array(apiScopeSchema, { error: 'scopes must be a list.' })
    .min(1, 'Choose at least one scope.')
    .max(API_SCOPES.length)
    .refine((a) => new Set(a).size === a.length, 'Each scope can be listed once.')
    .optional(),
  /** A test key (mv_test_…) answers from the sandbox: no mail server is contacted and no credit is used. */
  test: z.boolean({ error: 'test must be true or false.' }).optional(),
  /** Requests per second for this key; at most the plan's rate. Omit (or null) for the plan's rate. */
  rate_limit_per_second: z
    .number({ error: 'The rate limit must be a number.' })
    .int('The rate limit must be a whole number of requests per second.')
    .min(1, 'The rate limit must be at least 1 request per second.')
    .max(1_000_000, 'The rate limit is above your plan\'s rate.')
    .nullable()
    .optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

export const revokeApiKeyInput = z.object({ id: z.string().min(1).max(100) });

export const apiKeyStatusSchema = z.enum(['active', 'revoked']);

/** One row of the API Keys table. Never carries the key or its hash. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  key_prefix: z.string(),
  created_at: z.string(), // ISO time
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: apiKeyStatusSchema,
  /** A sandbox key (shown with a "Test" badge). */
  is_test: z.boolean(),
  scopes: z.array(apiScopeSchema),
  /** null: the plan's rate. */
  rate_limit_per_second: z.number().int().nullable(),
  /**
   * Its creator is a member without a seat (the plan fell below the team's size): /v1 refuses the
   * key until they have one again (server/rest/rest-procedures.ts). Always false where not listed.
   */
  creator_seatless: z.boolean(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** What create returns: the row plus the full key, shown once (spec: `api_key`). */
export const createdApiKeySchema = apiKeySchema.extend({ api_key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
