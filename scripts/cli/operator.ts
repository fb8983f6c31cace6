// Operator commands (accounts, jobs). Each talks to DATABASE_URL, or with none to the same
// embedded database `npm start` uses (also while the app is running), and writes the audit log
// (actor 'operator').
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { createDb, createPool, type Db } from '../../db/client';
import { migrate } from '../../db/migrate';
import { authSchemaOptions } from '../../server/auth/auth';
import { planTypeSchema, type PlanType } from '../../server/contracts/plans';
import { readEnv } from '../../server/env';
import { grantAccountCredits, resolveAccountRef, setPlan } from '../../server/features/account/account.operator';
import { billingState, setApiRate, setBillingState, subscriptionStateSchema } from '../../server/features/billing/billing.operator';
import type { JobStatus, SubscriptionState } from '../../db/types';
import { jobStatusSchema } from '../../server/contracts/jobs';
import { MAX_CREDITS_BALANCE } from '../../server/features/credits/credits';
import { listJobs, replayJob, showJob } from '../../server/features/jobs/jobs.operator';
import { AppError } from '../../server/lib/app-error';
import { openLocalDb } from '../local-db';

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

const defaultIo: CliIo = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), env: process.env };

class CliFailure extends Error {}

/** The account named by id or by its owner's email. */
const resolveAccount = resolveAccountRef;

async function withDb<T>(io: CliIo, fn: (db: Db) => Promise<T>): Promise<T> {
  const env = readEnv(io.env);
  const local = await openLocalDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  const pool = createPool(local.url, 3);
  const db = createDb(pool);
  try {
    // A database this command had to start itself may never have been migrated.
    if (local.owned) await migrate({ db, pool, authOptions: authSchemaOptions() });
    return await fn(db);
  } finally {
    await db.destroy();
    await local.stop();
  }
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0 || n > MAX_CREDITS_BALANCE) throw new InvalidArgumentError('must be a positive whole number');
  return n;
}

function planArg(v: string): PlanType {
  const p = planTypeSchema.safeParse(v.toLowerCase());
  if (!p.success) throw new InvalidArgumentError(`must be one of ${planTypeSchema.options.join(', ')}`);
  return p.data;
}

/** A mistyped status (`complete`) listed "(no jobs)" as if there were none. */
function jobStatusArg(v: string): JobStatus {
  const p = jobStatusSchema.safeParse(v.toLowerCase());
  if (!p.success) throw new InvalidArgumentError(`must be one of ${jobStatusSchema.options.join(', ')}`);
  return p.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Anything but a UUID reached Postgres, whose 'invalid input syntax for type uuid' was the message. */
function jobIdArg(v: string): string {
  if (!UUID.test(v.trim())) throw new InvalidArgumentError('must be a job id (a UUID, as `mailvet jobs list` shows)');
  return v.trim().toLowerCase();
}

function dateArg(v: string): Date {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new InvalidArgumentError('must be an ISO date, e.g. 2026-12-31T00:00:00Z');
  return d;
}

type Field = [label: string, value: string | false];

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export async function runOperatorCli(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const print = (s = '') => io.out(`${s}\n`);
  /** The show commands' layout: `  label   value`, labels padded to `width`; a false value is left out. */
  const printFields = (width: number, fields: Field[]) => {
    for (const [label, value] of fields) if (value !== false) print(`  ${pad(label, width)}${value}`);
  };
  const program = new Command('mailvet')
    .description('Mailvet command line: verify addresses, run a probe daemon, operate accounts and jobs.\nWith no DATABASE_URL, operator commands use the embedded database of `npm start` (also while it runs).')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  program.command('verify').description('Verify addresses read one per line from stdin (see `mailvet verify --help`).');
  program.command('probe').description('Run a probe daemon (PROBE_PORT, PROBE_TOKEN).');
  program.command('mcp').description('Serve the Model Context Protocol over stdio for AI assistants (MAILVET_URL, MAILVET_API_KEY; see `mailvet mcp --help`).');

  const accounts = program.command('accounts').description('Operate on customer accounts (each change is written to the audit log as the operator).');
  /** An `accounts` sub-command whose first argument names the account (id or owner's email). */
  const accountCommand = (name: string, description: string) => accounts.command(name).description(description).argument('<account>', "account id or the owner's email");
  accountCommand('set-plan', "Put an account on a plan at once: its gates, monthly quota and team limit apply immediately; an upgrade also grants the plan's monthly credits (sales-led deals, or a paid plan before billing).")
    .argument('<plan>', `one of ${planTypeSchema.options.join(', ')}`, planArg)
    .option('--no-credits', "do not grant the plan's monthly credits on an upgrade")
    .action(async (ref: string, plan: PlanType, opts: { credits: boolean }) => {
      const r = await withDb(io, (db) => setPlan(db, ref, plan, { grantCredits: opts.credits }));
      print(`Account ${r.accountId}: plan ${r.from} → ${r.plan}; credits ${r.creditsBefore} → ${r.creditsAfter}; monthly quota ${r.quota}; team limit ${r.teamMemberLimit}.`);
    });
  accountCommand('grant-credits', 'Add credits to an account balance.')
    .argument('<n>', 'credits to add', positiveInt)
    .option('--key <key>', 'an idempotency key (a ticket or deal id): run again with it, the command grants nothing more')
    .action(async (ref: string, n: number, opts: { key?: string }) => {
      const r = await withDb(io, (db) => grantAccountCredits(db, ref, n, { key: opts.key }));
      if (r.alreadyGranted) print(`Account ${r.accountId}: already granted ${n} credits with key ${opts.key}; balance ${r.creditsAfter}. Nothing changed.`);
      else print(`Account ${r.accountId}: credits ${r.creditsBefore} → ${r.creditsAfter}.`);
    });

  accountCommand('billing', 'Show the billing state: plan, subscription status (active, past_due, suspended), period end, grace end, cancellation, API rate and the latest payments.')
    .action(async (ref: string) => {
      await withDb(io, async (db) => {
        const b = await billingState(db, (await resolveAccount(db, ref)).id);
        const iso = (d: Date | null) => (d ? d.toISOString() : '—');
        print(`Account ${b.id}`);
        printFields(14, [
          ['plan', `${b.plan}${b.billing_interval ? ` (${b.billing_interval})` : ''}`],
          ['status', `${b.subscription_status}${b.cancel_at_period_end ? ' (cancelled: ends at period end)' : ''}`],
          ['period end', iso(b.current_period_end)],
          ['grace end', iso(b.grace_ends_at)],
          ['subscription', b.subscription_id ?? '—'],
          ['country', b.billing_country ?? '—'],
          ['api rate', b.api_rate_per_second === null ? 'plan table' : `${b.api_rate_per_second} req/s (custom)`],
          ['credits', String(b.credits_balance)],
          ...b.payments.map((p): Field => ['payment', `${p.id}  ${p.status}  ${p.amount} ${p.currency}  ${p.created_at.toISOString()}`]),
        ]);
      });
    });
  accountCommand('set-billing', 'Set the billing state by hand: --status active | past_due (starts the 7-day grace) | suspended (402 on new work) | none; --period-end moves the paid period end.')
    .option('--status <status>', 'active | past_due | suspended | none', (v: string) => {
      const p = subscriptionStateSchema.safeParse(v);
      if (!p.success) throw new InvalidArgumentError('must be one of active, past_due, suspended, none');
      return p.data;
    })
    .option('--period-end <date>', 'ISO date-time of the paid period end', dateArg)
    .option('--grace-end <date>', 'ISO date-time the grace period ends (past_due)', dateArg)
    .action(async (ref: string, opts: { status?: SubscriptionState; periodEnd?: Date; graceEnd?: Date }) => {
      if (!opts.status && !opts.periodEnd && !opts.graceEnd) throw new CliFailure('Give --status, --period-end or --grace-end.');
      const r = await withDb(io, async (db) => {
        const id = (await resolveAccount(db, ref)).id;
        return { id, ...(await setBillingState(db, id, { status: opts.status, periodEnd: opts.periodEnd, graceEndsAt: opts.graceEnd })) };
      });
      print(`Account ${r.id}: billing ${r.from} → ${r.status}; period end ${r.periodEnd ? r.periodEnd.toISOString() : '—'}; grace end ${r.graceEndsAt ? r.graceEndsAt.toISOString() : '—'}.`);
    });
  accountCommand('set-api-rate', "Enterprise: the account's own API rate in requests per second, or 'default' for the plan table's.")
    .argument('<rate>', "requests per second (1–100000) or 'default'", (v: string) => {
      if (v === 'default') return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new InvalidArgumentError("must be a whole number from 1 to 100000, or 'default'");
      return n;
    })
    .action(async (ref: string, rate: number | null) => {
      const r = await withDb(io, async (db) => {
        const id = (await resolveAccount(db, ref)).id;
        return { id, ...(await setApiRate(db, id, rate)) };
      });
      print(`Account ${r.id}: API rate ${r.from ?? 'plan table'} → ${r.to === null ? 'plan table' : `${r.to} req/s`}.`);
    });

  const jobs = program.command('jobs').description('Inspect and replay bulk validation jobs.');
  jobs
    .command('list')
    .description('Recent jobs of every account (or one), newest first.')
    .option('--account <account>', "only this account (id or owner's email)")
    .option('--status <status>', 'pending | processing | completed | failed | cancelled', jobStatusArg)
    .option('--limit <n>', 'how many', positiveInt, 20)
    .action(async (opts: { account?: string; status?: JobStatus; limit: number }) => {
      await withDb(io, async (db) => {
        const accountId = opts.account ? (await resolveAccount(db, opts.account)).id : undefined;
        const rows = await listJobs(db, { accountId, status: opts.status, limit: opts.limit });
        print(`${pad('JOB', 36)}  ${pad('STATUS', 10)}  ${pad('DONE', 13)}  ${pad('CREATED', 24)}  ${pad('ACCOUNT', 36)}  FILE`);
        for (const j of rows) print(`${j.id}  ${pad(j.status, 10)}  ${pad(`${j.processed_emails}/${j.total_emails}`, 13)}  ${pad(j.created_at, 24)}  ${j.account_id}  ${j.filename}`);
        if (rows.length === 0) print('(no jobs)');
      });
    });
  jobs
    .command('show')
    .description('One job: status, progress, counts, reasons, chunks and the error if it failed.')
    .argument('<id>', 'job id', jobIdArg)
    .action(async (id: string) => {
      await withDb(io, async (db) => {
        const { accountId, job: j, chunks, reasons } = await showJob(db, id);
        const open = chunks.filter((c) => !c.completed_at);
        print(`Job ${j.id}  (${j.filename}, source ${j.source}${j.replay_of ? `, replay of ${j.replay_of}` : ''})`);
        printFields(11, [
          ['account', accountId],
          ['status', `${j.status}${j.error ? ` — ${j.error}` : ''}`],
          ['progress', `${j.processed_emails}/${j.total_emails} (${j.progress}%)`],
          ['results', `valid ${j.valid_count}, invalid ${j.invalid_count}, risky ${j.risky_count}`],
          ['created', `${j.created_at}${j.started_at ? `  started ${j.started_at}` : ''}${j.completed_at ? `  finished ${j.completed_at}` : ''}`],
          ['reasons', reasons.length > 0 && reasons.map((r) => `${r.reason} ${r.count}`).join(', ')],
          ['chunks', `${chunks.length - open.length}/${chunks.length} done`],
        ]);
        for (const c of open) print(`    #${c.chunk_no}: ${c.size} addresses, ${c.attempts} attempt(s)${c.last_error ? `, last error: ${c.last_error}` : ''}`);
      });
    });
  jobs
    .command('replay')
    .description("Re-run a job's addresses as a new job of the same account (e.g. after a probe fix). Free for the customer unless --charge.")
    .argument('<id>', 'job id', jobIdArg)
    .option('--charge', "take credits from the account's balance as for a new upload", false)
    .action(async (id: string, opts: { charge: boolean }) => {
      const r = await withDb(io, (db) => replayJob(db, id, { charge: opts.charge }));
      print(`Replay queued: job ${r.jobId} with ${r.totalEmails} addresses.`);
    });

  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof CliFailure || err instanceof AppError) {
      io.err(`error: ${err.message}\n`);
      return 1;
    }
    io.err(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
