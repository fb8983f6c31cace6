import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { rememberPool } from './prepared';
import type { Database } from './types';

// Postgres returns int8 (bigint) and numeric as strings by default; our counters fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
// A date column stays the calendar date it is ('2026-11-01'), not a UTC-midnight Date.
pg.types.setTypeParser(1082, (v) => v);

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client can be killed by the server (e.g. on shutdown); that must not crash the process.
  pool.on('error', (err) => logPoolError('[db] idle client error', err));
  pool.on('connect', (client) => {
    client.on('error', (err) => logPoolError('[db] client error', err));
  });
  return pool;
}

/** Logs a connection error, except the server's own shutdown (57P01), which Ctrl+C causes. */
export function logPoolError(what: string, err: Error & { code?: string }): void {
  if (err.code === '57P01') return;
  console.error(`${what}:`, err.message);
}

export function createDb(pool: pg.Pool): Kysely<Database> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  rememberPool(db, pool); // for the named statements of the hot path (db/prepared.ts)
  return db;
}

export type Db = Kysely<Database>;
