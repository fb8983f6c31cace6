/// <reference path="./vendor-modules.d.ts" />
// The probe library entry: createVerifier() runs syntax, DNS, SMTP and the flag checks and returns
// contract-shaped results. The daemon (daemon/server.ts) and the CLI (cli.ts) only adapt I/O.
import { Engine } from './verifier';
import type { ProbeOptions, Verifier } from './types';

export type { Depth, Verdict, Reason, VerificationResult } from './contract';
/** Which addresses Mailvet may connect to (MX hosts here, webhook receivers in the server). */
export { checkAddress, isBlockedAddress, type AddressCheck } from './net-guard';
/** The probe's DNS client, also used by the server to verify custom domains (TXT/CNAME). */
export { DnsCache, type DnsAnswer } from './dns/resolver';

export type { ProbeOptions, VerifyCallOptions, Verifier } from './types';
/** The verdicts syntax alone decides (bad syntax, address literals), answerable without a daemon. */
export { decideBySyntax, type SyntaxDecision } from './syntax/decide';

export function createVerifier(opts: ProbeOptions = {}): Verifier {
  return new Engine(opts);
}
