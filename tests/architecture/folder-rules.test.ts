// DESIGN.md's folder rules are enforced by the lint step; this proves the lint step would catch a
// violation (so the rules cannot silently stop working).
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(import.meta.dirname, '../..', file) });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

const NO_SQL = 'No SQL outside server/features/ and db/: call the domain service (server/features/<domain>/) instead.';

/** Every message of the no-SQL rule (query-builder calls, sql`` templates, value imports of kysely). */
async function sqlViolations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(import.meta.dirname, '../..', file) });
  return result!.messages.filter((m) => m.message.includes(NO_SQL)).map((m) => m.message);
}

describe('folder rules', () => {
  it('probe/ may not import server/, src/ or db/', async () => {
    expect(await violations('probe/dns/x.ts', "import { appRouter } from '../../server/trpc/app-router';")).toHaveLength(1);
    expect(await violations('probe/x.ts', "import { createDb } from '../db/client';")).toHaveLength(1);
    expect(await violations('probe/x.ts', "import { verificationResultSchema } from './contract';")).toHaveLength(0);
  });

  it('src/ takes only types from server/, plus the shared schemas in server/contracts/', async () => {
    expect(await violations('src/lib/x.ts', "import { appRouter } from '../../server/trpc/app-router';")).toHaveLength(1);
    expect(await violations('src/lib/x.ts', "import type { AppRouter } from '../../server/trpc/app-router';")).toHaveLength(0);
    expect(await violations('src/lib/x.ts', "import { PLANS } from '../../server/contracts/plans';")).toHaveLength(0);
    expect(await violations('src/lib/x.ts', "import { createDb } from '../../db/client';")).toHaveLength(1);
  });

  it('server/contracts/ stays pure (no database or server internals)', async () => {
    expect(await violations('server/contracts/x.ts', "import { Kysely } from 'kysely';")).toHaveLength(1);
    expect(await violations('server/contracts/x.ts', "import { z } from 'zod';")).toHaveLength(0);
  });

  it('no SQL outside server/features/ and db/: transports, worker, auth hooks, mailer, CLI and benchmarks call services', async () => {
    const select = "export const f = (deps: { db: any }) => deps.db.selectFrom('account').selectAll().execute();";
    const outside = ['server/rest/x.ts', 'server/trpc/x.ts', 'server/http/x.ts', 'server/worker/tasks/x.ts', 'scripts/cli/x.ts'];
    // The remaining places that once held queries: the worker runner, better-auth's hooks, the mailer, the benchmarks.
    outside.push('server/worker/runner.ts', 'server/auth/auth.ts', 'server/mail/mailer.ts', 'scripts/bench/bench-bulk.ts', 'server/x.ts', 'server/lib/x.ts');
    for (const file of outside) {
      expect(await sqlViolations(file, select), file).toHaveLength(1);
    }
    expect(await sqlViolations('server/rest/x.ts', "export const f = (trx: any) => trx.updateTable('validation_job').set({ webhook_url: null }).execute();")).toHaveLength(1);
    expect(await sqlViolations('server/worker/tasks/x.ts', "import { sql } from 'kysely';\nexport const f = (db: any) => sql`delete from validation_result`.execute(db);")).toHaveLength(2);
    expect(await sqlViolations('server/worker/runner.ts', "import { sql } from 'kysely';\nexport const f = (db: any) => sql`select graphile_worker.force_unlock_workers(${[]}::text[])`.execute(db);")).toHaveLength(2);
    expect(await sqlViolations('server/mail/mailer.ts', "export const f = (db: any) => db.insertInto('dev_outbox').values({}).execute();")).toHaveLength(1);
    expect(await sqlViolations('server/trpc/x.ts', "import type { Kysely } from 'kysely';\nexport type K = Kysely<unknown>;")).toHaveLength(0);
    // The domain folders own their queries.
    expect(await sqlViolations('server/features/jobs/x.ts', select)).toHaveLength(0);
    expect(await sqlViolations('db/x.ts', select)).toHaveLength(0);
    expect(await sqlViolations('server/features/workers/x.ts', select)).toHaveLength(0);
    // server/contracts/ keeps its own, stricter rule (no kysely at all, types included).
    expect(await violations('server/contracts/x.ts', "import type { Kysely } from 'kysely';")).toHaveLength(1);
  });
});
