// API keys: the shapes the dashboard and the server share (spec sections 3, 5 and 7).
import { z } from 'zod';

export const API_KEY_NAME_REQUIRED = 'Please enter a name for the API key';
export const API_KEY_NAME_MAX = 100;

export const createApiKeyInput = z.object({
  name: z
    .string({ error: API_KEY_NAME_REQUIRED })
    .trim()
    .min(1, API_KEY_NAME_REQUIRED)
    .max(API_KEY_NAME_MAX, `API key names can be at most ${API_KEY_NAME_MAX} characters.`)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'API key names cannot contain control characters.'),
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
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** What create returns: the row plus the full key, shown once (spec: `api_key`). */
export const createdApiKeySchema = apiKeySchema.extend({ api_key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
