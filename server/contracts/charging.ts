// Fair charging, stated once for the server, the Billing page and the API documentation: a result
// Mailvet could not decide costs nothing. Pure data: shared with the browser.
import type { Reason, Verdict } from '../../probe/contract';

/**
 * Unknown verdicts that cost nothing: the check could not reach a decision. `smtp_not_checked`
 * (the plan checks syntax and MX only) is not among them: that check did all its plan offers.
 */
export const UNCHARGED_REASONS: readonly Reason[] = ['dns_error', 'smtp_unreachable', 'greylisted', 'policy_block', 'blocked_address', 'address_literal', 'security_gateway', 'smtputf8_unsupported'];

export function isCharged(r: { verdict: Verdict; reason: Reason }): boolean {
  return !(r.verdict === 'unknown' && UNCHARGED_REASONS.includes(r.reason));
}

export const FAIR_CHARGING_RULE =
  'Results we cannot decide cost nothing: when a check ends unknown because DNS failed, the mail server could not be reached or refused to answer, or greylisting outlasted our deadline, its credit is returned at once and the result says "charged": false.';
