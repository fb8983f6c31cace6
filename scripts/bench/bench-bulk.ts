// npm run bench:bulk — a 10,000-row CSV from upload to completed, on the simulated mail internet
// (tests/mailworld, the same bulk world as bench:probe: ~220 domains with a realistic skew,
// greylisting, tarpits, every SMTP reply delayed 20 ms), through the real path: the upload service
// (parse, store, job + domain-grouped chunks + queued tasks), graphile-worker, the probe client over
// HTTP to a probe daemon, batched idempotent writes with credits, on a real PostgreSQL.
//
// Prints the parse+store time alone (target < 1 s), the whole job's wall time and addresses/s, and
// the probe's own time for the same addresses (one HTTP batch to a fresh daemon) with the ratio
// (target ≤ 2×).
//
//   tsx scripts/bench/bench-bulk.ts [--addresses 10000] [--domains 220] [--reply-delay-ms 20]
//     [--concurrency 16] [--chunk-size 500] [--time-limit-s 600]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { BENCH_BASE_URL } from './bench-common';
import { createDb, createPool } from '../../db/client';
import { startEmbeddedPostgres } from '../../db/embedded';
import { migrate } from '../../db/migrate';
import { ProbeClient } from '../../probe/client/probe-client';
import { startProbeDaemon } from '../../probe/daemon/server';
import { authSchemaOptions } from '../../server/auth/auth';
import { closeDeps, createDeps } from '../../server/boot';
import { readEnv } from '../../server/env';
import { grantAccountCredits, resolveAccountRef, setPlan } from '../../server/features/account/account.operator';
import { creditsBalance } from '../../server/features/credits/credits';
import { parseEmailCsv } from '../../server/features/jobs/csv-import';
import { findJob, reasonBreakdown } from '../../server/features/jobs/jobs.queries';
import { uploadBulkFile } from '../../server/features/jobs/jobs.service';
import { startWorker } from '../../server/worker/runner';
import { generateBulkDomains, startMailWorld, type MailWorld } from '../../tests/mailworld/index';

const { values: argv } = parseArgs({
  options: {
    addresses: { type: 'string', default: '10000' },
    domains: { type: 'string', default: '220' },
    'reply-delay-ms': { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '16' },
    'chunk-size': { type: 'string', default: '500' },
    'time-limit-s': { type: 'string', default: '600' },
  },
});
const ADDRESSES = Number(argv.addresses);
const RTT = Number(argv['reply-delay-ms']);
const CONCURRENCY = Number(argv.concurrency);
const TIME_LIMIT_MS = Number(argv['time-limit-s']) * 1000;

// The probe's options, as in bench:probe: production politeness defaults, bounded timeouts.
const TIMEOUTS = { dnsTimeoutMs: 2000, connectTimeoutMs: 2000, bannerTimeoutMs: 5000, replyTimeoutMs: 5000, greylistDeadlineMs: { realtime: 10_000, bulk: 30_000 } };

const hardStop = setTimeout(() => {
  console.log(`\nHARD STOP: time limit of ${TIME_LIMIT_MS / 1000} s reached.`);
  process.exit(2);
}, TIME_LIMIT_MS);
hardStop.unref();

const line = (s = '') => console.log(s);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function freshDaemon(world: MailWorld) {
  const token = crypto.randomBytes(16).toString('hex');
  const daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token, probe: { ...world.verifierOptions(), ...TIMEOUTS } });
  return { ...daemon, token };
}

async function main() {
  const domains = generateBulkDomains({ domains: Number(argv.domains), addresses: ADDRESSES, seed: 2026, greylistMs: 3000, tarpitMs: 1500, tld: 'com' });
  const world = await startMailWorld({ domains, replyDelayMs: RTT });
  const emails = world.emails.slice(0, ADDRESSES);
  const rows = ['email,first_name,company', ...emails.map((e, i) => `${i % 7 === 0 ? e.toUpperCase().replace(/^[^@]+/, (l) => l.toLowerCase()) : e},Name ${i},"Company, ${i % 50}"`)];
  const csv = Buffer.from(`\uFEFF${rows.join('\r\n')}\r\n`);
  line(`bench:bulk — ${emails.length} addresses over ${world.domains.length} domains, SMTP replies delayed ${RTT} ms; CSV ${(csv.length / 1024).toFixed(0)} kB`);
  line(`worker concurrency ${CONCURRENCY}, chunk size ${argv['chunk-size']}; Node ${process.version}, ${os.cpus().length} CPUs`);

  // 1. The probe alone: all addresses in one HTTP batch to a fresh daemon.
  let probeMs: number;
  {
    world.resetGreylist();
    const d = await freshDaemon(world);
    const t = performance.now();
    let n = 0;
    for await (const r of new ProbeClient({ urls: [d.url], token: d.token }).verify(emails, { depth: 'smtp', mode: 'bulk' })) if (r) n++;
    probeMs = performance.now() - t;
    await d.close();
    line(`probe alone (HTTP, one batch)   ${secs(probeMs)}  ${(n / (probeMs / 1000)).toFixed(0)} addresses/s  (${n} results)`);
  }

  // 2. The product path on a real PostgreSQL.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-bench-'));
  fs.chmodSync(dir, 0o755); // initdb runs as another user when we are root
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), database: 'bench', persistent: true });
  const stops: Array<() => Promise<void>> = [];
  try {
    {
      const pool = createPool(pg.url, 2);
      const db = createDb(pool);
      await migrate({ db, pool, authOptions: authSchemaOptions() });
      await db.destroy();
    }
    world.resetGreylist();
    const daemon = await freshDaemon(world);
    stops.push(daemon.close);
    const env = readEnv({ NODE_ENV: 'production', MAIL_STORE_ONLY: 'true', BASE_URL: BENCH_BASE_URL, BETTER_AUTH_SECRET: 'bench-secret-bench-secret-bench-secret', WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('hex'), DATA_DIR: dir, STORAGE_DIR: path.join(dir, 'storage'), WORKER_CONCURRENCY: String(CONCURRENCY) });
    const deps = await createDeps({ env, databaseUrl: pg.url, probe: { urls: [daemon.url], token: daemon.token }, runMigrations: false, poolSize: CONCURRENCY + 10 });
    stops.unshift(() => closeDeps(deps));

    // A paid account with enough credits: signed up through better-auth (the sign-up hook provisions
    // the account), then moved to Starter and credited by the operator services.
    const email = 'bench@example.com';
    const signedUp = await deps.auth.api.signUpEmail({ body: { name: 'Bench', email, password: crypto.randomBytes(18).toString('base64url') } });
    const userId = signedUp.user.id;
    const { id: accountId } = await resolveAccountRef(deps.db, email);
    await setPlan(deps.db, accountId, 'starter', { grantCredits: false });
    const { creditsAfter: creditsAtStart } = await grantAccountCredits(deps.db, accountId, ADDRESSES * 2);

    // Parse alone, then parse + store + job creation (the upload's server-side work).
    let t = performance.now();
    const parsed = parseEmailCsv(csv);
    const parseMs = performance.now() - t;
    if (!parsed.ok) throw new Error(parsed.error.message);

    const worker = await startWorker(deps, { cron: false, pollInterval: 500 });
    stops.unshift(worker.stop);
    const t0 = performance.now();
    const up = await uploadBulkFile(deps, { accountId, userId, plan: 'starter' }, { filename: 'bench.csv', bytes: csv });
    const storeMs = performance.now() - t0;
    line(`parse alone                      ${secs(parseMs)}  (${parsed.value.emails.length} unique of ${parsed.value.rows} rows)`);
    line(`parse + store + create job       ${secs(storeMs)}  (${up.totalEmails} addresses; target < 1 s: ${storeMs < 1000 ? 'met' : 'MISSED'})`);

    let last = -1;
    for (;;) {
      const j = await findJob(deps.db, accountId, up.jobId);
      if (!j) throw new Error('the job is gone');
      if (j.processed_emails !== last && j.processed_emails % 1 === 0) last = j.processed_emails;
      if (j.status === 'completed' || j.status === 'failed') {
        if (j.status === 'failed') throw new Error(`job failed: ${j.error}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const totalMs = performance.now() - t0;
    const rowsWritten = (await reasonBreakdown(deps.db, accountId, up.jobId)).reduce((n, r) => n + r.count, 0);
    const balance = await creditsBalance(deps.db, accountId);
    line(`upload → completed               ${secs(totalMs)}  ${(up.totalEmails / (totalMs / 1000)).toFixed(0)} addresses/s  (${rowsWritten} results; credits taken ${creditsAtStart - balance})`);
    const ratio = totalMs / probeMs;
    line(`ratio to the probe's own time    ${ratio.toFixed(2)}×  (target ≤ 2×: ${ratio <= 2 ? 'met' : 'MISSED'})`);
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
    await pg.stop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    await world.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
