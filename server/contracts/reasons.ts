// What each reason code (probe/contract.ts) means, in words, stated once: the History breakdown and
// result tables (label), the OpenAPI document and the Documentation page (description), and the
// single-check explanation (explanation, for reasons whose sentence needs no SMTP evidence; the
// others are composed with the server's name and reply code in src/.../explain-result.ts).
// Pure data: shared with the browser.
import type { Reason } from '../../probe/contract';

export interface ReasonText {
  /** A short label for tables and breakdowns. */
  label: string;
  /** One sentence for the API reference. */
  description: string;
  /** The single-check explanation, when it needs no evidence from the mail server. */
  explanation?: string;
}

export const REASON_TEXT: Record<Reason, ReasonText> = {
  accepted: { label: 'Mailbox exists', description: 'The mailbox accepted the recipient and a random address was refused.' },
  syntax: { label: 'Bad syntax', description: 'Not a valid email address.', explanation: 'This is not a valid email address.' },
  no_domain: { label: 'Domain does not exist', description: 'The domain does not exist.', explanation: 'The domain does not exist: DNS has no record of it.' },
  null_mx: { label: 'Domain accepts no mail', description: 'The domain declares that it accepts no mail.', explanation: 'The domain publishes a "null MX" record, which says it accepts no email at all.' },
  dns_error: {
    label: 'DNS error',
    description: 'DNS lookup failed or timed out; try again later.',
    explanation: "The domain's DNS servers failed or did not answer in time, so nothing could be checked. This is not a verdict on the address; try again later.",
  },
  no_mx: { label: 'No mail server', description: 'The domain has no mail server.', explanation: 'The domain has no mail servers: it publishes neither MX nor address records.' },
  smtp_unreachable: { label: 'Mail server unreachable', description: 'No mail server could be reached.' },
  policy_block: { label: 'Blocked by policy', description: 'The mail server refused the check for policy reasons.' },
  greylisted: { label: 'Greylisted', description: 'The server asked us to retry later and did not answer in time.' },
  mailbox_not_found: { label: 'Mailbox not found', description: 'The mailbox does not exist.' },
  mailbox_disabled: { label: 'Mailbox disabled', description: 'The mailbox exists but is disabled.' },
  mailbox_full: { label: 'Mailbox full', description: 'The mailbox is over quota.' },
  catch_all: { label: 'Catch-all domain', description: 'The domain accepts every address, so this one cannot be confirmed.' },
  disposable: {
    label: 'Disposable provider',
    description: 'The address belongs to a disposable provider.',
    explanation: 'This domain hands out temporary, throw-away mailboxes. Mail may arrive, but the address will not be read for long.',
  },
  blocked_address: {
    label: 'Blocked address',
    description: 'The domain points to a private network address and was not contacted.',
    explanation: "The domain's mail servers point to a private or reserved network address, which Mailvet does not contact.",
  },
  smtp_not_checked: { label: 'Mailbox not checked', description: 'Your plan checks syntax and MX only; the mailbox was not asked.' },
  address_literal: {
    label: 'IP address literal',
    description: 'The domain is an IP address literal (user@[192.0.2.1]): valid syntax, never probed.',
    explanation:
      'The address names a raw IP address instead of a domain ([192.0.2.1]). That is valid syntax, but no public mailbox is reached that way and Mailvet never connects to raw addresses, so the mailbox was not checked.',
  },
  smtputf8_unsupported: {
    label: 'International address not supported',
    description: 'The address has a non-ASCII local part and the mail server does not support SMTPUTF8 (RFC 6531): the mailbox cannot be checked there.',
    explanation:
      "The address has non-ASCII characters before the @, and the domain's mail servers do not support internationalized addresses (SMTPUTF8), so it could not be asked about. That says nothing about the mailbox itself, but mail to this address may not be deliverable.",
  },
  security_gateway: {
    label: 'Security gateway',
    description: 'A security gateway (Proofpoint, Mimecast, Barracuda…) accepts every address or answers by policy: the mailbox cannot be verified there.',
  },
};

/** The short label of a reason code (an unknown code is shown with spaces for underscores). */
export function reasonLabel(reason: string): string {
  return (REASON_TEXT as Record<string, ReasonText | undefined>)[reason]?.label ?? reason.replaceAll('_', ' ');
}
