// Test keys (mv_test_…) answer from the sandbox table (server/contracts/sandbox.ts) instead of the
// probe: each answer is built by the probe's own result builder and scoring function from what the
// table says the checks "found", so verdicts, reasons and scores are the ones a live key would get
// for the same findings. Pure and deterministic: no DNS, no SMTP, no database.
import { buildResult, emptyFindings } from '../../../probe/build-result';
import type { VerificationResult } from '../../../probe/contract';
import { parseAddress } from '../../../probe/syntax/parse-address';
import { SANDBOX_DOMAIN, SANDBOX_ENTRIES, sandboxEntryFor, type SandboxEntry } from '../../contracts/sandbox';

const NOT_CHECKED = SANDBOX_ENTRIES.find((e) => e.reason === 'smtp_not_checked')!;
const SANDBOX_MX = `mx.${SANDBOX_DOMAIN}`;

/** The sandbox's answer for one address (the input is kept verbatim in `email`). */
export function sandboxResult(email: string): VerificationResult {
  const findings = emptyFindings(email, 'smtp', 0);
  const syntax = parseAddress(email);
  if (!syntax.ok) return buildResult({ ...findings, detail: `Sandbox answer (test key): ${syntax.error.message}` });
  const listed = sandboxEntryFor(syntax.details.normalized);
  const entry: SandboxEntry = listed ?? NOT_CHECKED;
  const literal = syntax.details.literal;
  const dnsOk = entry.dns === 'ok' && !literal;
  return buildResult({
    ...findings,
    parsed: syntax.details,
    dns: literal ? null : entry.dns,
    blockedAddress: entry.blockedAddress ?? false,
    mxHosts: dnsOk ? [SANDBOX_MX] : [],
    smtp: literal ? null : entry.smtp,
    catchAll: entry.catchAll ?? null,
    gateway: entry.gateway ?? false,
    disposable: entry.disposable ?? false,
    role: entry.role ?? false,
    mxHost: entry.smtp ? SANDBOX_MX : null,
    detail: listed
      ? `Sandbox answer (test key): ${entry.description}`
      : 'Sandbox answer (test key): not a sandbox address, so no mail server was asked. Use a live key to check real addresses.',
  });
}
