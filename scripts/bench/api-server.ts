// The server under test of `npm run bench:api` (scripts/bench/bench-api.ts starts it as a child
// process, so the load generator does not share its event loop): a throw-away embedded PostgreSQL,
// a probe daemon on 127.0.0.1, the web server and a worker, and one Enterprise account seeded
// through the product's services — signed up, moved to Enterprise, credited, its API rate lifted by
// the operator service, a live key and a test key, and a finished 1,000-address job (the test key's
// sandbox answers it through the real worker, no mail server needed). Prints one JSON line with
// what the bench needs, then serves until SIGTERM.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort, startEmbeddedPostgres } from '../../db/embedded';
import { startProbeDaemon } from '../../probe/daemon/server';
import { readEnv } from '../../server/env';
import { BENCH_BASE_URL } from './bench-common';
import { grantAccountCredits, resolveAccountRef, setPlan } from '../../server/features/account/account.operator';
import { createApiKey } from '../../server/features/api-keys/api-keys.service';
import { setApiRate } from '../../server/features/billing/billing.operator';
import { startServer } from '../../server/main';

const RESULTS = 1000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-bench-api-'));
fs.chmodSync(dir, 0o755); // the embedded server may run as another user
const stops: Array<() => Promise<unknown>> = [];
const stop = async () => {
  for (const s of stops) await s().catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

try {
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), persistent: false });
  stops.push(() => pg.stop());
  const token = crypto.randomBytes(16).toString('hex');
  // Syntax-depth answers need no DNS; a closed loopback port keeps anything else off the internet.
  const probe = await startProbeDaemon({ port: 0, host: '127.0.0.1', token, probe: { dnsServers: ['127.0.0.1:9'], dnsTimeoutMs: 200 } });
  stops.unshift(() => probe.close());
  // BENCH_WEB_PROCESSES = n: n − 1 more web processes (scripts/bench/api-web.ts) share the port
  // (SO_REUSEPORT); with more than one the API rate buckets are in Postgres unless
  // API_RATE_LIMIT_STORE=memory is passed (each process then enforces ⌈rate ÷ n⌉).
  const webProcesses = Math.max(1, Number(process.env.BENCH_WEB_PROCESSES ?? 1));
  const envSource = {
    NODE_ENV: 'production',
    // No relay: the bench's sign-up mail is stored, never sent (production refuses that unless told).
    MAIL_STORE_ONLY: 'true',
    BASE_URL: BENCH_BASE_URL,
    PORT: webProcesses > 1 ? String(await freePort()) : '0',
    HOST: '127.0.0.1',
    BETTER_AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
    DATA_DIR: dir,
    STORAGE_DIR: path.join(dir, 'storage'),
    PROBE_URLS: probe.url,
    PROBE_TOKEN: token,
    WEB_PROCESSES: String(webProcesses),
    ...(process.env.API_RATE_LIMIT_STORE ? { API_RATE_LIMIT_STORE: process.env.API_RATE_LIMIT_STORE } : {}),
  };
  const env = readEnv(envSource);
  const running = await startServer({ env, role: 'all', databaseUrl: pg.url, probe: { urls: [probe.url], token }, reusePort: webProcesses > 1 });
  stops.unshift(() => running.stop());
  for (let i = 1; i < webProcesses; i++) {
    const web = spawn(process.execPath, [...process.execArgv, path.join(import.meta.dirname, 'api-web.ts')], {
      env: { ...process.env, ...envSource, DATABASE_URL: pg.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    stops.unshift(
      () =>
        new Promise<void>((resolve) => {
          if (web.exitCode !== null) return resolve();
          web.once('exit', () => resolve());
          web.kill('SIGTERM');
        }),
    );
    await new Promise<void>((resolve, reject) => {
      web.once('exit', (code) => reject(new Error(`web process ${i} exited (${code})`)));
      readline.createInterface({ input: web.stdout! }).on('line', (l) => (l === 'ready' ? resolve() : undefined));
    });
  }
  const server = { url: running.url!.replace('localhost', '127.0.0.1') };

  // One Enterprise account through the product's doors: sign-up provisions it, the operator
  // services set the plan, the credits and the API rate (so the plan's rate never refuses the bench).
  const db = running.deps.db;
  const email = 'bench-api@example.com';
  await running.deps.auth.api.signUpEmail({ body: { name: 'Bench', email, password: crypto.randomBytes(18).toString('base64url') } });
  const { id: accountId } = await resolveAccountRef(db, email);
  await setPlan(db, accountId, 'enterprise', { grantCredits: false });
  await grantAccountCredits(db, accountId, 1_000_000_000);
  await setApiRate(db, accountId, 100_000);
  const live = await createApiKey(db, { accountId, userId: null, plan: 'enterprise', name: 'bench live' });
  const test = await createApiKey(db, { accountId, userId: null, plan: 'enterprise', name: 'bench test', test: true });

  // A finished job of 1,000 results (sandbox addresses: every verdict, tags keep them unique).
  const emails = Array.from({ length: RESULTS }, (_, i) => `valid+${i}@sandbox.mailvet.dev`);
  const started = await fetch(`${server.url}/v1/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${test.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ emails }),
  });
  if (!started.ok) throw new Error(`bulk: ${started.status} ${await started.text()}`);
  const { job_id: jobId } = (await started.json()) as { job_id: string };
  const deadline = Date.now() + 120_000;
  for (;;) {
    const j = (await (await fetch(`${server.url}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${test.api_key}` } })).json()) as { status: string };
    if (j.status === 'completed') break;
    if (j.status === 'failed' || Date.now() > deadline) throw new Error(`the 1,000-address job did not complete (${j.status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  console.log(JSON.stringify({ url: server.url, liveKey: live.api_key, testKey: test.api_key, jobId, results: RESULTS }));
} catch (err) {
  console.error(err);
  await stop();
}
