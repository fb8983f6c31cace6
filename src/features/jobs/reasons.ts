import type { Reason } from '../../../probe/contract';

/** Short, human words for the engine's reason codes (probe/contract.ts). */
const LABELS: Record<Reason, string> = {
  accepted: 'Mailbox exists',
  syntax: 'Bad syntax',
  no_domain: 'Domain does not exist',
  null_mx: 'Domain accepts no mail',
  dns_error: 'DNS error',
  no_mx: 'No mail server',
  smtp_unreachable: 'Mail server unreachable',
  policy_block: 'Blocked by policy',
  greylisted: 'Greylisted',
  mailbox_not_found: 'Mailbox not found',
  mailbox_disabled: 'Mailbox disabled',
  mailbox_full: 'Mailbox full',
  catch_all: 'Catch-all domain',
  disposable: 'Disposable provider',
  blocked_address: 'Blocked address',
  smtp_not_checked: 'Mailbox not checked',
  address_literal: 'IP address literal',
};

export function reasonLabel(reason: string): string {
  return (LABELS as Record<string, string>)[reason] ?? reason.replaceAll('_', ' ');
}
