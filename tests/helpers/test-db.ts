import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, createPool, type Db } from '../../db/client';

export interface TestDb {
  url: string;
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

/** A fresh, fully migrated database of its own (cloned from the run's template). */
export async function createTestDb(): Promise<TestDb> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  try {
    await admin.query(`create database ${name} template mailvet_template`);
  } finally {
    await admin.end();
  }
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const pool = createPool(url, 10);
  const db = createDb(pool);
  return { url, pool, db, close: () => db.destroy() };
}
