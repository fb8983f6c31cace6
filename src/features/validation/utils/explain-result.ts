// Turns the engine's reason and evidence into one plain sentence a doubting user can check:
// what was asked, who answered, and the reply code that decided it. Sentences that need no
// evidence come from the one list of reason texts (server/contracts/reasons.ts).
import type { Evidence, Reason, SmtpReply } from '../../../../probe/contract';
import { REASON_TEXT } from '../../../../server/contracts/reasons';

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
    case 'security_gateway':
      return last((r) => r.stage === 'rcpt');
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
      return REASON_TEXT.disposable.explanation!;
    case 'syntax':
      return r.evidence.detail ? `This is not a valid email address: ${r.evidence.detail}` : REASON_TEXT.syntax.explanation!;
    case 'no_domain':
      return REASON_TEXT.no_domain.explanation!;
    case 'null_mx':
      return REASON_TEXT.null_mx.explanation!;
    case 'no_mx':
      // probe/dns/mx.ts's detail when the domain has MX records but none of their hosts has an address.
      return /^no MX host of /.test(r.evidence.detail ?? '')
        ? "The domain's MX records name mail servers that have no address (no A/AAAA record), so no mail can be delivered to it."
        : REASON_TEXT.no_mx.explanation!;
    case 'dns_error':
      return REASON_TEXT.dns_error.explanation!;
    case 'smtp_unreachable':
      return withCode('None of the domain\'s mail servers could be reached (refused, silent or busy), so the mailbox could not be checked', reply) + '.';
    case 'policy_block':
      return withCode(`${server} refused to answer our check for policy or reputation reasons. That says nothing about the mailbox itself`, reply) + '.';
    case 'greylisted':
      return withCode(`${server} asked us to try again later (greylisting) and did not accept the check before our deadline`, reply) + '.';
    case 'blocked_address':
      return REASON_TEXT.blocked_address.explanation!;
    case 'security_gateway':
      return withCode(
        `${server} is a security gateway that accepts every address or answers by policy, so it does not reveal whether this mailbox exists. The address may be fine; it could not be verified`,
        reply,
      ) + '.';
    case 'address_literal':
      return REASON_TEXT.address_literal.explanation!;
    case 'smtputf8_unsupported':
      return REASON_TEXT.smtputf8_unsupported.explanation!;
    case 'smtp_not_checked':
      return host
        ? `The domain has working mail servers (${host}), but the mailbox itself was not checked: your plan checks syntax and MX records only.`
        : 'The mailbox itself was not checked: your plan checks syntax and MX records only.';
  }
}
