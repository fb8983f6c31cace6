// The documented public result shape (spec section 3 "Public documented result shape", the API
// docs): snake_case names without the dashboard's is_ prefixes, plus the machine reason.
import { z } from 'zod';
import { reasonSchema, resultSchema, type Reason } from '../../probe/contract';
import { FAIR_CHARGING_RULE } from '../contracts/charging';

export const publicResultSchema = z
  .object({
    email: z.string().meta({ description: 'The address you sent, exactly as received.' }),
    result: resultSchema.meta({ description: 'valid, invalid or risky.' }),
    reason: reasonSchema.meta({ description: 'Machine-readable cause of the result.' }),
    deliverability_score: z.number().int().min(0).max(100),
    syntax_valid: z.boolean(),
    mx_valid: z.boolean(),
    smtp_valid: z.boolean(),
    disposable_provider: z.boolean(),
    role_detected: z.boolean(),
    charged: z.boolean().meta({ description: FAIR_CHARGING_RULE }),
  })
  .meta({ id: 'ValidationResult' });
export type PublicResult = z.infer<typeof publicResultSchema>;

/** Any dashboard-shaped result (a stored row or a fresh check) → the public shape. */
export function toPublicResult(r: {
  email: string;
  result: 'valid' | 'invalid' | 'risky';
  reason: string;
  deliverability_score: number;
  is_syntax_valid: boolean;
  is_mx_valid: boolean;
  is_smtp_valid: boolean;
  disposable_provider: boolean;
  role_detected: boolean;
  charged: boolean;
}): PublicResult {
  return {
    email: r.email,
    result: r.result,
    reason: r.reason as Reason,
    deliverability_score: r.deliverability_score,
    syntax_valid: r.is_syntax_valid,
    mx_valid: r.is_mx_valid,
    smtp_valid: r.is_smtp_valid,
    disposable_provider: r.disposable_provider,
    role_detected: r.role_detected,
    charged: r.charged,
  };
}
