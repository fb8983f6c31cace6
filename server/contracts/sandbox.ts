// The sandbox table: what a test key (mv_test_…) answers, for every address. Pure data, shared by the
// server (server/features/api-keys/sandbox.ts builds each answer from it through the probe's one
// scoring function) and the Documentation page (which lists it). One row per verdict and reason.
//
// Rules, in order: an address that is not a valid address → invalid/syntax; an address on
// SANDBOX_DOMAIN whose local part (before any "+tag", case-insensitive) is in the table → that row;
// an address listed exactly (the address literal) → that row; anything else → risky, reason
// smtp_not_checked (a test key never contacts a mail server).

export const SANDBOX_DOMAIN = 'sandbox.mailvet.dev';

export type SandboxDns = 'ok' | 'no_domain' | 'null_mx' | 'dns_error' | 'no_mx';
export type SandboxSmtp = 'accepted' | 'smtp_unreachable' | 'policy_block' | 'greylisted' | 'mailbox_not_found' | 'mailbox_disabled' | 'mailbox_full' | 'smtputf8_unsupported' | null;

export interface SandboxEntry {
  /** The documented address. */
  address: string;
  result: 'valid' | 'invalid' | 'risky';
  verdict: 'deliverable' | 'undeliverable' | 'risky' | 'unknown';
  reason: string;
  /** What the sandbox pretends the checks found (the answer is built from these by the probe's scoring). */
  dns: SandboxDns;
  smtp: SandboxSmtp;
  catchAll?: boolean;
  disposable?: boolean;
  role?: boolean;
  blockedAddress?: boolean;
  /** The answering server is a security gateway (Proofpoint, Mimecast, Barracuda…). */
  gateway?: boolean;
  /** For the documentation. */
  description: string;
}

const d = (local: string) => `${local}@${SANDBOX_DOMAIN}`;

export const SANDBOX_ENTRIES: readonly SandboxEntry[] = [
  { address: d('valid'), result: 'valid', verdict: 'deliverable', reason: 'accepted', dns: 'ok', smtp: 'accepted', catchAll: false, description: 'The mailbox exists and the server refuses made-up ones.' },
  { address: d('role'), result: 'valid', verdict: 'deliverable', reason: 'accepted', dns: 'ok', smtp: 'accepted', catchAll: false, role: true, description: 'Deliverable, with role_detected (a shared inbox such as info@): a lower score, never a verdict.' },
  { address: d('invalid'), result: 'invalid', verdict: 'undeliverable', reason: 'mailbox_not_found', dns: 'ok', smtp: 'mailbox_not_found', description: 'The server says the mailbox does not exist (5.1.1).' },
  { address: d('disabled'), result: 'invalid', verdict: 'undeliverable', reason: 'mailbox_disabled', dns: 'ok', smtp: 'mailbox_disabled', description: 'The mailbox is disabled (5.2.1).' },
  { address: d('no-domain'), result: 'invalid', verdict: 'undeliverable', reason: 'no_domain', dns: 'no_domain', smtp: null, description: 'The domain does not exist (NXDOMAIN).' },
  { address: d('null-mx'), result: 'invalid', verdict: 'undeliverable', reason: 'null_mx', dns: 'null_mx', smtp: null, description: 'The domain publishes a null MX: it accepts no mail.' },
  { address: d('no-mx'), result: 'invalid', verdict: 'undeliverable', reason: 'no_mx', dns: 'no_mx', smtp: null, description: 'No MX and no usable A/AAAA record.' },
  { address: d('catchall'), result: 'risky', verdict: 'risky', reason: 'catch_all', dns: 'ok', smtp: 'accepted', catchAll: true, description: 'The server accepts every address, so this one cannot be confirmed.' },
  { address: d('disposable'), result: 'risky', verdict: 'risky', reason: 'disposable', dns: 'ok', smtp: 'accepted', catchAll: false, disposable: true, description: 'A disposable (throwaway) provider.' },
  { address: d('full'), result: 'risky', verdict: 'risky', reason: 'mailbox_full', dns: 'ok', smtp: 'mailbox_full', description: 'The mailbox is full (5.2.2).' },
  { address: d('unknown'), result: 'risky', verdict: 'unknown', reason: 'smtp_unreachable', dns: 'ok', smtp: 'smtp_unreachable', description: 'Every mail server refused the connection or stayed silent.' },
  { address: d('greylisted'), result: 'risky', verdict: 'unknown', reason: 'greylisted', dns: 'ok', smtp: 'greylisted', description: 'The server kept answering "try again later" past the deadline.' },
  { address: d('policy-block'), result: 'risky', verdict: 'unknown', reason: 'policy_block', dns: 'ok', smtp: 'policy_block', description: 'The server refused to answer for policy or reputation reasons (5.7.x).' },
  { address: d('gateway'), result: 'risky', verdict: 'unknown', reason: 'security_gateway', dns: 'ok', smtp: 'accepted', catchAll: true, gateway: true, description: 'A security gateway accepts every address (or answers by policy): the mailbox cannot be verified there.' },
  { address: d('josé'), result: 'risky', verdict: 'unknown', reason: 'smtputf8_unsupported', dns: 'ok', smtp: 'smtputf8_unsupported', description: 'A non-ASCII local part, and the mail server does not support SMTPUTF8: the address cannot be asked there.' },
  { address: d('dns-error'), result: 'risky', verdict: 'unknown', reason: 'dns_error', dns: 'dns_error', smtp: null, description: 'DNS failed (SERVFAIL or timeout).' },
  { address: d('private-mx'), result: 'risky', verdict: 'unknown', reason: 'blocked_address', dns: 'ok', smtp: null, blockedAddress: true, description: 'The mail server resolves to a private address, which Mailvet never connects to.' },
  { address: d('not-checked'), result: 'risky', verdict: 'unknown', reason: 'smtp_not_checked', dns: 'ok', smtp: null, description: 'The mailbox was not asked (syntax and MX only). Every address not in this table answers this way.' },
  { address: 'sandbox@[192.0.2.1]', result: 'risky', verdict: 'unknown', reason: 'address_literal', dns: 'ok', smtp: null, description: 'An address literal: valid syntax, never probed.' },
];

/** The row for syntax errors: any string that is not an address (e.g. "not-an-email"). */
export const SANDBOX_SYNTAX_EXAMPLE = { address: 'not-an-email', result: 'invalid', verdict: 'undeliverable', reason: 'syntax', description: 'Anything that is not a valid address.' } as const;

/** The table row for an address (local part before "+tag", case-insensitive), or null when it is not listed. */
export function sandboxEntryFor(address: string): SandboxEntry | null {
  const at = address.lastIndexOf('@');
  if (at < 0) return null;
  const domain = address.slice(at + 1).toLowerCase();
  if (domain !== SANDBOX_DOMAIN) return SANDBOX_ENTRIES.find((e) => e.address === address.toLowerCase()) ?? null;
  const local = address.slice(0, at).toLowerCase().split('+')[0];
  return SANDBOX_ENTRIES.find((e) => e.address === `${local}@${SANDBOX_DOMAIN}`) ?? null;
}
