import { describe, expect, it } from 'vitest';
import { verificationResultSchema } from './contract';
import { buildResult, emptyFindings, type Findings } from './build-result';
import { parseAddress } from './syntax/parse-address';

const parsed = (email: string) => {
  const r = parseAddress(email);
  if (!r.ok) throw new Error('bad fixture');
  return r.details;
};

const base: Findings = {
  ...emptyFindings('John@Example.com', 'smtp', 12.6),
  parsed: parsed('John@Example.com'),
  dns: 'ok',
  mxHosts: ['mx.example.com'],
  smtp: 'accepted',
  catchAll: false,
  mxHost: 'mx.example.com',
  mxIp: '192.0.2.1',
  replies: [{ stage: 'rcpt', code: 250, enhanced: '2.1.5', text: 'ok' }],
};

describe('result assembly', () => {
  it('fills the contract and the spec fields consistently', () => {
    const r = verificationResultSchema.parse(buildResult(base));
    expect(r).toMatchObject({
      email: 'John@Example.com',
      normalized: 'John@example.com',
      verdict: 'deliverable',
      result: 'valid',
      reason: 'accepted',
      score: 100,
      deliverability_score: 100,
      is_syntax_valid: true,
      is_dns_valid: true,
      is_mx_valid: true,
      is_smtp_valid: true,
      ms: 13,
      evidence: { depth: 'smtp', mx_host: 'mx.example.com', mx_ip: '192.0.2.1', retries: 0, detail: null },
    });
  });

  it('marks the spec booleans by what DNS found', () => {
    const nx = buildResult({ ...base, dns: 'no_domain', smtp: null, mxHosts: [] });
    expect(nx).toMatchObject({ is_dns_valid: false, is_mx_valid: false, is_smtp_valid: false, result: 'invalid' });
    const nullMx = buildResult({ ...base, dns: 'null_mx', smtp: null, mxHosts: [] });
    expect(nullMx).toMatchObject({ is_dns_valid: true, is_mx_valid: false, reason: 'null_mx' });
    const servfail = buildResult({ ...base, dns: 'dns_error', smtp: null });
    expect(servfail).toMatchObject({ is_dns_valid: false, verdict: 'unknown', result: 'risky' });
  });

  it('explains a DNSBL listing in the evidence', () => {
    const r = buildResult({ ...base, dnsblZones: ['bl.example'] });
    expect(r.evidence.detail).toBe('mail server 192.0.2.1 listed in bl.example');
    expect(r.score).toBe(90);
  });

  it('gives a syntax failure the input verbatim and nothing else', () => {
    const r = verificationResultSchema.parse(buildResult({ ...base, email: ' not valid ', parsed: null, dns: null, smtp: null, mxHosts: [], catchAll: null, replies: [], mxHost: null, mxIp: null }));
    expect(r).toMatchObject({ email: ' not valid ', normalized: null, verdict: 'undeliverable', reason: 'syntax', score: 0, is_syntax_valid: false });
  });
});
