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
});
