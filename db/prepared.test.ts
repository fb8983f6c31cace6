// db/prepared.ts: a statement run on a Db made by createDb is a named statement of the pooled
// connection (Postgres lists it in pg_prepared_statements, once, however often it runs); on a Db
// without a pool of its own (a transaction) the same text runs unnamed with the same answer; a name
// cannot carry two texts.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, createPool, type Db } from './client';
import { preparedStatement, runPrepared } from './prepared';
import { createTestDb, type TestDb } from '../tests/helpers/test-db';

let t: TestDb;
let one: Db; // a pool of one connection, so every call lands on the same session

beforeAll(async () => {
  t = await createTestDb();
  one = createDb(createPool(t.url, 1));
});
afterAll(async () => {
  await one.destroy();
  await t.close();
});

const doubled = preparedStatement('test_prepared_doubled', 'select ($1::int * 2) as n, $2::text as label');

async function preparedNames(db: Db): Promise<string[]> {
  const r = await runPrepared<{ name: string }>(db, preparedStatement('test_prepared_list', 'select name from pg_prepared_statements order by name'), []);
  return r.map((x) => x.name);
}

describe('runPrepared', () => {
  it('runs a named statement on the pooled connection, prepared once', async () => {
    expect(await runPrepared<{ n: number; label: string }>(one, doubled, [21, 'a'])).toEqual([{ n: 42, label: 'a' }]);
    expect(await runPrepared<{ n: number; label: string }>(one, doubled, [5, 'b'])).toEqual([{ n: 10, label: 'b' }]);
    expect(await preparedNames(one)).toEqual(['test_prepared_doubled', 'test_prepared_list']);
  });

  it('inside a transaction runs the same text unnamed, with the same answer and nothing prepared', async () => {
    const fresh = createDb(createPool(t.url, 1));
    try {
      const rows = await fresh.transaction().execute((trx) => runPrepared<{ n: number; label: string }>(trx, doubled, [3, 'c']));
      expect(rows).toEqual([{ n: 6, label: 'c' }]);
      const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(fresh);
      expect(prepared.rows).toEqual([]);
    } finally {
      await fresh.destroy();
    }
  });

  it('refuses a second text under a name already taken', () => {
    expect(() => preparedStatement('test_prepared_doubled', 'select 1')).toThrow(/declared twice/);
    expect(preparedStatement('test_prepared_doubled', 'select ($1::int * 2) as n, $2::text as label')).toEqual(doubled);
  });

  it('a bad parameter is the database error, and the statement still runs afterwards', async () => {
    await expect(runPrepared(one, doubled, ['not a number', 'x'])).rejects.toThrow(/invalid input syntax/);
    expect(await runPrepared<{ n: number }>(one, doubled, [1, 'd'])).toEqual([{ n: 2, label: 'd' }]);
  });
});
