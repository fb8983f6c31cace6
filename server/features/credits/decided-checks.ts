// The single checks whose verdict is known before anything is written (the syntax check decided
// it) take their credit and store their result in ONE statement: a take of this folder's, batched by
// ../validation/store-batch.ts. Same rules as takeCredits/reserveCredits in credits.ts (never below
// zero, counted in this month's usage, refused while suspended).
import type { Kysely } from 'kysely';
import { preparedStatement, runPrepared } from '../../../db/prepared';
import type { Database, NewValidationResult } from '../../../db/types';
import { wellFormedJson } from '../../lib/well-formed';
import { pickVerdictFields } from '../validation/results.queries';


/** One decided single check waiting to be charged and stored (store-batch.ts). */
export interface DecidedCheck {
  row: NewValidationResult;
  /** Whether it costs a credit (fair charging: an undecided result does not). */
  charged: boolean;
}

export type DecidedCheckOutcome =
  | { kind: 'stored'; id: number; checkedAt: Date; charged: boolean; balance: number }
  | { kind: 'suspended' }
  | { kind: 'insufficient' };

interface DecidedRow {
  ord: number;
  id: string | null;
  checked_at: Date | null;
  charged: boolean | null;
  balance: number;
  subscription_status: string | null;
}

/**
 * $1 the account id, $2 the checks as a JSON array (ord, charge, the result's columns). A named
 * statement (db/prepared.ts): parsed and planned once per connection, not on every call.
 */
const chargeAndStoreStatement = preparedStatement(
  'credits_charge_and_store_decided',
  `with acct as (
      select credits_balance, subscription_status from account where id = $1 for update
    ), req as (
      select r.*, sum(r.charge) over (order by r.ord) as spent
      from jsonb_to_recordset($2::jsonb) as r(
        ord int, charge int, created_by text, email text, result text, verdict text, reason text,
        is_syntax_valid boolean, is_dns_valid boolean, is_mx_valid boolean, is_smtp_valid boolean,
        deliverability_score int, mx_hosts jsonb, role_detected boolean, disposable_provider boolean,
        free_provider boolean, catch_all boolean, suggestion text, domain_age_days int, evidence jsonb)
    ), ok as (
      select req.*, nextval(pg_get_serial_sequence('validation_result', 'id')) as id
      from req, acct
      where (acct.subscription_status is null or acct.subscription_status <> 'suspended')
        and req.spent - req.charge < acct.credits_balance
    ), debit as (
      update account
      set credits_balance = credits_balance - s.n,
          monthly_validations_used = monthly_validations_used + s.n,
          updated_at = now()
      from (select coalesce(sum(charge), 0)::int as n from ok) s
      where account.id = $1 and s.n > 0
      returning account.credits_balance
    ), ins as (
      insert into validation_result (id, account_id, job_id, created_by, email, result, verdict, reason,
        is_syntax_valid, is_dns_valid, is_mx_valid, is_smtp_valid, deliverability_score, mx_hosts,
        role_detected, disposable_provider, free_provider, catch_all, suggestion, domain_age_days, evidence, charged, via_api)
      select id, $1, null, created_by, email, result, verdict, reason,
        is_syntax_valid, is_dns_valid, is_mx_valid, is_smtp_valid, deliverability_score,
        array(select jsonb_array_elements_text(mx_hosts)), role_detected, disposable_provider, free_provider,
        catch_all, suggestion, domain_age_days, evidence, charge = 1, created_by is null
      from ok
      returning id, checked_at, charged
    )
    select req.ord, ins.id, ins.checked_at, ins.charged, (acct.credits_balance - req.spent)::int as balance, acct.subscription_status
    from req cross join acct
    left join ok on ok.ord = req.ord
    left join ins on ins.id = ok.id
    order by req.ord`,
);

/**
 * Charges and stores several decided single checks of ONE account in one statement (one round
 * trip, one commit), in order, as if each had been reserved and stored on its own: the account row
 * is locked, check i goes through when the account is not suspended and the balance before it
 * (after the charged checks ahead of it) is at least 1 — the single check's reservation rule, so an
 * uncharged result still needs a credit to be there — and the balance falls by the charged ones
 * that went through. The rest store nothing and cost nothing. Ids come from the table's sequence
 * inside the statement, so each outcome maps back to its check exactly.
 */
export async function chargeAndStoreDecided(db: Kysely<Database>, accountId: string, checks: DecidedCheck[]): Promise<DecidedCheckOutcome[]> {
  if (checks.length === 0) return [];
  const rows = checks.map((c, ord) => {
    const r = c.row;
    if (r.account_id !== accountId || r.job_id !== null) throw new Error('chargeAndStoreDecided: single checks of this account only');
    return {
      ord,
      charge: c.charged ? 1 : 0,
      created_by: r.created_by,
      email: r.email,
      ...pickVerdictFields(r),
      mx_hosts: r.mx_hosts ?? [],
      free_provider: r.free_provider ?? false,
      evidence: typeof r.evidence === 'string' ? (JSON.parse(r.evidence) as unknown) : (r.evidence ?? null),
    };
  });
  const stored = await runPrepared<DecidedRow>(db, chargeAndStoreStatement, [accountId, wellFormedJson(rows)]);
  const out: DecidedCheckOutcome[] = checks.map(() => ({ kind: 'insufficient' }));
  for (const r of stored) {
    if (r.id !== null && r.checked_at !== null) out[r.ord] = { kind: 'stored', id: Number(r.id), checkedAt: r.checked_at, charged: r.charged ?? true, balance: r.balance };
    else if (r.subscription_status === 'suspended') out[r.ord] = { kind: 'suspended' };
  }
  return out;
}
