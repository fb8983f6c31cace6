// The verdicts the syntax check alone decides: an address that fails RFC 5321 syntax (invalid,
// reason syntax; "did you mean" when only the dots of a common provider's domain were wrong:
// john@gmailcom → john@gmail.com) and an address literal (user@[192.0.2.1]: unknown, never probed).
// They need no DNS, no SMTP and no state, so a caller holding the library (the server's single check) can answer
// them without a round trip to a probe daemon; the engine answers them through this same function,
// so both give the same result.
import type { Depth, VerificationResult } from '../contract';
import { buildResult, emptyFindings } from '../build-result';
import { isRoleAccount } from '../misc/role-account';
import { parseAddress, type ParsedAddress } from './parse-address';
import { suggestRepairedAddress } from './suggest-domain';

export const ADDRESS_LITERAL_DETAIL = 'address literal: the mail would go straight to an IP address, which Mailvet never connects to; the mailbox was not checked';

export type SyntaxDecision = { decided: true; result: VerificationResult } | { decided: false; parsed: ParsedAddress };

/** The syntax check of one address: its final result when syntax decides it, or the parsed address to look up. */
export function decideBySyntax(email: string, depth: Depth, ms = 0): SyntaxDecision {
  const syntax = parseAddress(email);
  if (!syntax.ok) return { decided: true, result: buildResult({ ...emptyFindings(email, depth, ms), suggestion: suggestRepairedAddress(email), detail: syntax.error.message }) };
  if (syntax.details.literal) {
    // RFC 5321 address literal: valid, but never looked up or connected to (raw IPs are not probed).
    return { decided: true, result: buildResult({ ...emptyFindings(email, depth, ms), parsed: syntax.details, role: isRoleAccount(syntax.details.local), detail: ADDRESS_LITERAL_DETAIL }) };
  }
  return { decided: false, parsed: syntax.details };
}
