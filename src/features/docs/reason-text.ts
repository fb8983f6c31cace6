// TRANSITIONAL: the label and meaning of each reason code, until server/contracts/reasons.ts (one
// source for every screen) lands; then this file re-exports from there.
import type { Reason } from '../../../probe/contract';
import { reasonLabel } from '../jobs/reasons';

const DESCRIPTIONS: Record<Reason, string> = {
  accepted: 'The mailbox accepted the recipient and a random address was refused.',
  syntax: 'Not a valid email address.',
  no_domain: 'The domain does not exist.',
  null_mx: 'The domain declares that it accepts no mail.',
  dns_error: 'DNS lookup failed or timed out; try again later.',
  no_mx: 'The domain has no mail server.',
  smtp_unreachable: 'No mail server could be reached.',
  policy_block: 'The mail server refused the check for policy reasons.',
  greylisted: 'The server asked us to retry later and did not answer in time.',
  mailbox_not_found: 'The mailbox does not exist.',
  mailbox_disabled: 'The mailbox exists but is disabled.',
  mailbox_full: 'The mailbox is over quota.',
  catch_all: 'The domain accepts every address, so this one cannot be confirmed.',
  disposable: 'The address belongs to a disposable provider.',
  blocked_address: 'The domain points to a private network address and was not contacted.',
  smtp_not_checked: 'Your plan checks syntax and MX only; the mailbox was not asked.',
  address_literal: 'The domain is an IP address literal (user@[192.0.2.1]): valid syntax, never probed.',
};

export function reasonText(reason: Reason): { label: string; description: string } {
  return { label: reasonLabel(reason), description: DESCRIPTIONS[reason] };
}
