// Shared set-up for the bulk-job tests: a plain simulated mail internet, a probe daemon on it,
// paid accounts, uploads through the real HTTP route, and waiting for a job to settle.
import { startProbeDaemon } from '../../probe/daemon/server';
import type { Db } from '../../db/client';
import type { Plan } from '../../db/types';
import { planByType } from '../../server/contracts/plans';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { fastProbeOptions } from '../probe/mailworld-helpers';
import { signUpVerified, type Browserless, type TestServer } from '../helpers/test-server';

/** n plain domains with perDomain addresses each; every 5th address does not exist. */
export function plainDomains(n: number, perDomain: number, prefix = 'jobs'): DomainSpec[] {
  const out: DomainSpec[] = [];
  for (let i = 0; i < n; i++) {
    const domain = `d${i}.${prefix}.test`;
    const addresses = Array.from({ length: perDomain }, (_, j) => `u${j}`);
    const mailboxes: Record<string, 'ok'> = {};
    addresses.forEach((a, j) => {
      if (j % 5 !== 4) mailboxes[a] = 'ok';
    });
    out.push({
      domain,
      scenario: 'plain',
      mx: [{ host: `mx.${domain}`, priority: 10, ip: `127.93.${(i >> 8) & 255}.${(i & 255) + 1}`, server: { maxRcptsPerSession: 100 } }],
      mailboxes,
      addresses,
    });
  }
  return out;
}

export interface ProbeWorld {
  world: MailWorld;
  token: string;
  url: string;
  port: number;
  startProbe(): Promise<void>;
  stopProbe(): Promise<void>;
  stop(): Promise<void>;
}

export async function startProbeWorld(domains: DomainSpec[], o: { replyDelayMs?: number } = {}): Promise<ProbeWorld> {
  const world = await startMailWorld({ domains, replyDelayMs: o.replyDelayMs ?? 0 });
  const token = 'jobs-test-token';
  let daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token, probe: fastProbeOptions(world) });
  const port = Number(new URL(daemon.url).port);
  let running = true;
  const pw: ProbeWorld = {
    world,
    token,
    url: daemon.url,
    port,
    async startProbe() {
      if (running) return;
      daemon = await startProbeDaemon({ port, host: '127.0.0.1', token, probe: fastProbeOptions(world) });
      running = true;
    },
    async stopProbe() {
      if (!running) return;
      running = false;
      await daemon.close();
    },
    async stop() {
      await pw.stopProbe();
      await world.stop();
    },
  };
  return pw;
}

/** A verified user whose account is on `plan` with `credits`. */
export async function signUpOnPlan(ts: TestServer, email: string, plan: Plan, credits?: number): Promise<{ client: Browserless; accountId: string; userId: string }> {
  const client = await signUpVerified(ts, { email });
  const user = await ts.testDb.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const member = await ts.testDb.db.selectFrom('member').select('organizationId').where('userId', '=', user.id).executeTakeFirstOrThrow();
  const def = planByType(plan);
  await ts.testDb.db
    .updateTable('account')
    .set({ plan, credits_balance: credits ?? def.monthlyValidations, monthly_validations_quota: def.monthlyValidations, team_member_limit: def.teamMemberLimit })
    .where('id', '=', member.organizationId)
    .execute();
  return { client, accountId: member.organizationId, userId: user.id };
}

export async function uploadCsv(client: Browserless, filename: string, content: string | Uint8Array, type = 'text/csv'): Promise<{ status: number; body: any }> {
  const res = await fetch(new URL(`/api/jobs/upload?filename=${encodeURIComponent(filename)}`, client.baseURL), {
    method: 'POST',
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: client.baseURL, 'content-type': type },
    body: typeof content === 'string' ? content : Buffer.from(content),
  });
  return { status: res.status, body: await res.json() };
}

export async function waitForJob(db: Db, jobId: string, o: { timeoutMs?: number; until?: (j: { status: string; processed_emails: number }) => boolean } = {}) {
  const until = o.until ?? ((j) => j.status === 'completed' || j.status === 'failed');
  const deadline = Date.now() + (o.timeoutMs ?? 30_000);
  for (;;) {
    const job = await db.selectFrom('validation_job').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} (${job.processed_emails}/${job.total_emails}) after ${o.timeoutMs ?? 30_000} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function credits(db: Db, accountId: string): Promise<number> {
  return (await db.selectFrom('account').select('credits_balance').where('id', '=', accountId).executeTakeFirstOrThrow()).credits_balance;
}

export async function resultStats(db: Db, jobId: string): Promise<{ rows: number; unique: number }> {
  const r = await db
    .selectFrom('validation_result')
    .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.count<number>('email').distinct().as('unique')])
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return { rows: Number(r.rows), unique: Number(r.unique) };
}

export function csvOf(emails: string[], header = 'email'): string {
  return [header, ...emails].join('\r\n') + '\r\n';
}

/** An account row (with its user, organization and owner membership) straight in the database. */
export async function seedAccount(db: Db, o: { plan?: Plan; credits?: number; email?: string } = {}): Promise<{ accountId: string; userId: string }> {
  const { randomUUID } = await import('node:crypto');
  const userId = randomUUID();
  const accountId = randomUUID();
  const now = new Date();
  const email = o.email ?? `owner-${userId.slice(0, 8)}@example.com`;
  await db.insertInto('user').values({ id: userId, name: 'Seeded', email, emailVerified: true, image: null, createdAt: now, updatedAt: now }).execute();
  await db.insertInto('organization').values({ id: accountId, name: 'Seeded account', slug: `acct-${accountId}`, logo: null, metadata: null, createdAt: now }).execute();
  await db.insertInto('member').values({ id: randomUUID(), organizationId: accountId, userId, role: 'owner', createdAt: now }).execute();
  const def = planByType(o.plan ?? 'starter');
  await db
    .insertInto('account')
    .values({ id: accountId, owner_id: userId, plan: def.type, credits_balance: o.credits ?? def.monthlyValidations, monthly_validations_quota: def.monthlyValidations, team_member_limit: def.teamMemberLimit })
    .execute();
  return { accountId, userId };
}
