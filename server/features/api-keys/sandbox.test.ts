import { describe, expect, it } from 'vitest';
import { verificationResultSchema } from '../../../probe/contract';
import { SANDBOX_ENTRIES, SANDBOX_SYNTAX_EXAMPLE } from '../../contracts/sandbox';
import { reasonSchema, verdictSchema } from '../../../probe/contract';
import { sandboxResult } from './sandbox';

describe('sandbox answers (test keys)', () => {
  it.each(SANDBOX_ENTRIES.map((e) => [e.address, e] as const))('%s answers what the documented table says', (address, e) => {
    const r = verificationResultSchema.parse(sandboxResult(address));
    expect({ email: r.email, result: r.result, verdict: r.verdict, reason: r.reason }).toEqual({ email: address, result: e.result, verdict: e.verdict, reason: e.reason });
    expect(r.role_detected).toBe(e.role ?? false);
    expect(r.disposable_provider).toBe(e.disposable ?? false);
    expect(r.evidence.detail).toMatch(/^Sandbox answer/);
  });

  it('covers every verdict and every reason the engine can give', () => {
    const rows = [...SANDBOX_ENTRIES, SANDBOX_SYNTAX_EXAMPLE];
    expect(new Set(rows.map((e) => e.verdict))).toEqual(new Set(verdictSchema.options));
    expect(new Set(rows.map((e) => e.reason))).toEqual(new Set(reasonSchema.options));
  });

  it('answers syntax errors, +tags, upper case and unlisted addresses deterministically', () => {
    expect(sandboxResult(SANDBOX_SYNTAX_EXAMPLE.address)).toMatchObject({ result: 'invalid', reason: 'syntax', is_syntax_valid: false });
    expect(sandboxResult('Invalid+order-42@Sandbox.Mailvet.dev')).toMatchObject({ email: 'Invalid+order-42@Sandbox.Mailvet.dev', result: 'invalid', reason: 'mailbox_not_found' });
    const other = sandboxResult('ceo@real-company.example');
    expect(other).toMatchObject({ result: 'risky', reason: 'smtp_not_checked', is_smtp_valid: false });
    expect(other.evidence.detail).toMatch(/not a sandbox address/);
    expect(sandboxResult('valid@sandbox.mailvet.dev')).toEqual(sandboxResult('valid@sandbox.mailvet.dev'));
    expect(sandboxResult('valid@sandbox.mailvet.dev').deliverability_score).toBeGreaterThan(sandboxResult('role@sandbox.mailvet.dev').deliverability_score);
  });
});
