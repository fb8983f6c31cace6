// db/types.ts is written by hand (it carries the domain unions: Plan, JobStatus …), so this test
// holds it to the migrated schema: every table and column the migrations create is in `Database`
// (and nothing else is), with the same nullability and the same kind of value. A migration without
// the matching change to db/types.ts fails here, naming the table and column.
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../tests/helpers/test-db';

/**
 * Tables no feature queries through Kysely's typed builder: the migrator's bookkeeping, and
 * better-auth's own (credentials, verification tokens, TOTP secrets), which only better-auth reads
 * and writes. Typing one of them here means it must then match the schema.
 */
const UNTYPED_TABLES = new Set(['kysely_migration', 'kysely_migration_lock', 'auth_account', 'verification', 'twoFactor']);

type Kind = 'string' | 'number' | 'boolean' | 'Date' | 'json' | 'bigint-like' | 'array' | 'bytes';

function pgKind(udt: string): Kind {
  if (udt.startsWith('_')) return 'array';
  if (udt === 'bytea') return 'bytes';
  if (['int2', 'int4', 'float4', 'float8', 'numeric'].includes(udt)) return 'number';
  if (udt === 'int8') return 'bigint-like';
  if (udt === 'bool') return 'boolean';
  if (udt === 'timestamptz' || udt === 'timestamp') return 'Date';
  if (udt === 'json' || udt === 'jsonb') return 'json';
  return 'string'; // text, varchar, uuid, date, inet …
}

interface TsColumn {
  nullable: boolean;
  kinds: Set<string>;
}

/** The select-side type of each column of each table of `Database`, read with the TypeScript checker. */
function declaredSchema(): Map<string, Map<string, TsColumn>> {
  const file = path.resolve(import.meta.dirname, 'types.ts');
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === 'Database')!;
  const tables = new Map<string, Map<string, TsColumn>>();
  for (const table of checker.getDeclaredTypeOfSymbol(database).getProperties()) {
    const columns = new Map<string, TsColumn>();
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      let type = checker.getTypeOfSymbol(column);
      const select = type.getProperty('__select__'); // kysely's ColumnType / Generated
      if (select) type = checker.getTypeOfSymbol(select);
      const parts = type.isUnion() ? type.types : [type];
      const kinds = new Set<string>();
      for (const t of parts) {
        if (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) continue;
        if (t.flags & (ts.TypeFlags.StringLike)) kinds.add('string');
        else if (t.flags & ts.TypeFlags.NumberLike) kinds.add('number');
        else if (t.flags & ts.TypeFlags.BooleanLike) kinds.add('boolean');
        else if (t.flags & ts.TypeFlags.Unknown) kinds.add('json');
        else kinds.add(checker.typeToString(t));
      }
      columns.set(column.name, { nullable: parts.some((t) => (t.flags & ts.TypeFlags.Null) !== 0), kinds });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

function accepts(kinds: Set<string>, kind: Kind): boolean {
  if (kind === 'bigint-like') return kinds.has('string') || kinds.has('number');
  if (kind === 'json') return kinds.has('json') || kinds.size > 0; // a typed JSON shape is fine
  if (kind === 'Date') return kinds.has('Date');
  if (kind === 'bytes') return [...kinds].some((k) => k.startsWith('Buffer') || k.startsWith('Uint8Array'));
  if (kind === 'array') return [...kinds].some((k) => k.endsWith('[]'));
  return kinds.has(kind);
}

describe('db/types.ts against the migrated schema', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has exactly the tables and columns the migrations create, with their nullability and kind', async () => {
    const { rows } = await t.pool.query<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO'; udt_name: string }>(
      `select c.table_name, c.column_name, c.is_nullable, c.udt_name
         from information_schema.columns c join information_schema.tables tb using (table_schema, table_name)
        where c.table_schema = 'public' and tb.table_type = 'BASE TABLE' order by 1, 2`,
    );
    const declared = declaredSchema();
    const problems: string[] = [];
    const migrated = new Map<string, typeof rows>();
    for (const r of rows) {
      if (UNTYPED_TABLES.has(r.table_name)) continue;
      migrated.set(r.table_name, [...(migrated.get(r.table_name) ?? []), r]);
    }
    for (const [table, columns] of migrated) {
      const typed = declared.get(table);
      if (!typed) {
        problems.push(`table ${table} is missing from Database`);
        continue;
      }
      for (const c of columns) {
        const col = typed.get(c.column_name);
        if (!col) problems.push(`${table}.${c.column_name} is missing`);
        else {
          if (col.nullable !== (c.is_nullable === 'YES')) problems.push(`${table}.${c.column_name}: nullable is ${c.is_nullable === 'YES'} in the schema`);
          if (!accepts(col.kinds, pgKind(c.udt_name))) problems.push(`${table}.${c.column_name}: ${c.udt_name} in the schema, ${[...col.kinds].join(' | ')} in types.ts`);
        }
      }
      for (const name of typed.keys()) if (!columns.some((c) => c.column_name === name)) problems.push(`${table}.${name} is not in the schema`);
    }
    for (const table of declared.keys()) if (!migrated.has(table)) problems.push(`table ${table} is not in the schema`);
    expect(problems).toEqual([]);
    expect(declared.size).toBeGreaterThan(20);
  });
});
