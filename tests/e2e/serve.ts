// The whole product for the browser tests: a throw-away embedded Postgres, the simulated mail
// internet, a probe daemon pointed at it, and the web server + worker. Stops on SIGINT/SIGTERM.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../db/embedded';
import { startProbeDaemon } from '../../probe/daemon/server';
import { readEnv } from '../../server/env';
import { startServer } from '../../server/main';
import { startMailWorld } from '../mailworld/index';
import { startGeoFake } from './geo-fake';

const port = Number(process.env.E2E_PORT ?? 3111);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-e2e-'));
fs.chmodSync(dir, 0o755);

const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), persistent: false });
const world = await startMailWorld();
const token = crypto.randomBytes(16).toString('hex');
const probe = await startProbeDaemon({
  port: 0,
  host: '127.0.0.1',
  token,
  probe: { ...world.verifierOptions(), connectTimeoutMs: 2000, bannerTimeoutMs: 3000, replyTimeoutMs: 2000, greylistRetryDelaysMs: [300, 600], greylistDeadlineMs: { realtime: 3000, bulk: 10_000 } },
});
const geo = await startGeoFake();
const env = readEnv({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, GEO_URL: geo.url });
const server = await startServer({ env, role: 'all', databaseUrl: pg.url, probe: { urls: [probe.url], token }, baseURL: `http://127.0.0.1:${port}` });
console.log(`e2e app on ${server.url}`);
// Specs that must arrange a state no screen can reach (an account deleted under a signed-in user)
// find the database here (tests/e2e/db.ts).
const dbUrlFile = path.join(os.tmpdir(), `mailvet-e2e-${port}.dburl`);
fs.writeFileSync(dbUrlFile, pg.url, { mode: 0o600 });

const stop = async () => {
  await server.stop().catch(() => undefined);
  await probe.close().catch(() => undefined);
  await world.stop().catch(() => undefined);
  await geo.close().catch(() => undefined);
  await pg.stop().catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(dbUrlFile, { force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
