// One throw-away PostgreSQL for the whole run, with a migrated template database; every test
// file clones the template (CREATE DATABASE … TEMPLATE is a file copy: fast) so files never share rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb, createPool } from '../../db/client';
import { startEmbeddedPostgres, type EmbeddedDb } from '../../db/embedded';
import { migrate } from '../../db/migrate';
import { authSchemaOptions } from '../../server/auth/auth';

let pg: EmbeddedDb | null = null;
let dir: string | null = null;

export const TEMPLATE_DB = 'mailvet_template';

export async function setup(project: TestProject) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailvet-test-'));
  fs.chmodSync(dir, 0o755);
  pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), database: TEMPLATE_DB, persistent: false });
  const pool = createPool(pg.url, 2);
  const db = createDb(pool);
  await migrate({ db, pool, authOptions: authSchemaOptions() });
  await db.destroy();
  project.provide('pgAdminUrl', pg.adminUrl);
  project.provide('pgTemplateUrl', pg.url);
}

export async function teardown() {
  await pg?.stop().catch(() => undefined);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplateUrl: string;
  }
}
