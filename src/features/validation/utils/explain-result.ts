// Turns the engine's reason and evidence into one plain sentence a doubting user can check:
// what was asked, who answered, and the reply code that decided it.
import type { Evidence, Reason, SmtpReply } from '../../../../probe/contract';

export interface ExplainInput {
  reason: Reason;
  mx_hosts: string[];
  evidence: Evidence;
  depth: 'syntax' | 'mx' | 'smtp';
}

/** "550 5.1.1" from a reply. */
export function replyCode(r: SmtpReply): string {
  return r.enhanced ? `${r.code} ${r.enhanced}` : String(r.code);
}

/** The reply that decided the verdict: the last one at the stage that matters for this reason. */
export function decisiveReply(reason: Reason, replies: SmtpReply[]): SmtpReply | null {
  const last = (pred: (r: SmtpReply) => boolean) => [...replies].reverse().find(pred) ?? null;
  switch (reason) {
    case 'accepted':
    case 'mailbox_not_found':
    case 'mailbox_disabled':
    case 'mailbox_full':
    case 'greylisted':
      return last((r) => r.stage === 'rcpt');
    case 'catch_all':
      return last((r) => r.stage === 'rcpt_random') ?? last((r) => r.stage === 'rcpt');
    case 'policy_block':
      return last((r) => r.code >= 500 || (r.enhanced?.startsWith('5.7') ?? false)) ?? last(() => true);
    case 'smtp_unreachable':
      return last(() => true);
    default:
      return null;
  }
}

const withCode = (text: string, reply: SmtpReply | null) => (reply ? `${text} (${replyCode(reply)})` : text);

export function explainResult(r: ExplainInput): string {
  const reply = decisiveReply(r.reason, r.evidence.replies);
  const host = r.evidence.mx_host ?? r.mx_hosts[0] ?? null;
  const server = host ? `The mail server ${host}` : 'The mail server';
  switch (r.reason) {
    case 'accepted':
      return `${withCode(`${server} accepted this mailbox`, reply)} and refused a made-up address on the same domain, so the mailbox exists.`;
    case 'mailbox_not_found':
      return withCode(`${server} said this mailbox does not exist`, reply) + '.';
    case 'mailbox_disabled':
      return withCode(`${server} said this mailbox has been disabled`, reply) + '.';
    case 'mailbox_full':
      return withCode(`${server} said this mailbox is full, so mail to it bounces until it is emptied`, reply) + '.';
    case 'catch_all':
      return `${server} accepts every address on this domain, even made-up ones, so it cannot confirm that this particular mailbox exists.`;
    case 'disposable':
      return 'This domain hands out temporary, throw-away mailboxes. Mail may arrive, but the address will not be read for long.';
    case 'syntax':
      return r.evidence.detail ? `This is not a valid email address: ${r.evidence.detail}` : 'This is not a valid email address.';
    case 'no_domain':
      return 'The domain does not exist: DNS has no record of it.';
    case 'null_mx':
      return 'The domain publishes a "null MX" record, which says it accepts no email at all.';
    case 'no_mx':
      return 'The domain has no mail servers: it publishes neither MX nor address records.';
    case 'dns_error':
      return 'The domain\'s DNS servers failed or did not answer in time, so nothing could be checked. This is not a verdict on the address; try again later.';
    case 'smtp_unreachable':
      return withCode('None of the domain\'s mail servers could be reached (refused, silent or busy), so the mailbox could not be checked', reply) + '.';
    case 'policy_block':
      return withCode(`${server} refused to answer our check for policy or reputation reasons. That says nothing about the mailbox itself`, reply) + '.';
    case 'greylisted':
      return withCode(`${server} asked us to try again later (greylisting) and did not accept the check before our deadline`, reply) + '.';
    case 'blocked_address':
      return 'The domain\'s mail servers point to a private or reserved network address, which Mailvet does not contact.';
    case 'address_literal':
      return 'The address names a raw IP address instead of a domain ([192.0.2.1]). That is valid syntax, but no public mailbox is reached that way and Mailvet never connects to raw addresses, so the mailbox was not checked.';
    case 'smtp_not_checked':
      return host
        ? `The domain has working mail servers (${host}), but the mailbox itself was not checked: your plan checks syntax and MX records only.`
        : 'The mailbox itself was not checked: your plan checks syntax and MX records only.';
  }
}
