// Named (server-side prepared) statements for the few hot statements of the request path. Postgres
// parses, analyses and plans an unnamed statement on every call; for a big statement that is most of
// its cost (the syntax path's take-and-store CTE: ≈ 0.7 ms of 1.2 ms per call before). A named
// statement is parsed once per pooled connection (pg remembers which connections know which name)
// and from then on only bound and executed.
//
// The SQL text is fixed and lives where its query is written (server/features/…); the pool behind a
// Db comes from createDb (db/client.ts). A Db without a pool of its own (a transaction, a Kysely made
// elsewhere) runs the same text unnamed through Kysely: same result, nothing prepared.
import { CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from './types';

const pools = new WeakMap<object, pg.Pool>();

/** Records the pool behind a Db made by createDb, for prepared statements on it. */
export function rememberPool(db: Kysely<Database>, pool: pg.Pool): void {
  pools.set(db, pool);
}

export interface PreparedStatement {
  /** Unique per text: pg refuses one name for two texts on a connection. */
  readonly name: string;
  readonly text: string;
}

const byName = new Map<string, string>();

/** Declares a statement; a name is taken once (two texts under one name would fail on a connection). */
export function preparedStatement(name: string, text: string): PreparedStatement {
  const known = byName.get(name);
  if (known !== undefined && known !== text) throw new Error(`prepared statement ${name} declared twice with different SQL`);
  byName.set(name, text);
  return { name, text };
}

/** Runs a prepared statement with its parameters ($1, $2, … in its text) and returns its rows. */
export async function runPrepared<R>(db: Kysely<Database>, statement: PreparedStatement, values: unknown[]): Promise<R[]> {
  const pool = pools.get(db);
  if (pool) return (await pool.query<R & pg.QueryResultRow>({ name: statement.name, text: statement.text, values })).rows;
  return (await db.executeQuery<R>(CompiledQuery.raw(statement.text, values))).rows;
}
