// Lint exists to keep DESIGN.md's folder rules from eroding:
//  - probe/ imports nothing from server/ or src/;
//  - src/ takes only types from server/, plus the shared zod schemas in server/contracts/.
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.data/**', 'test-results/**', 'playwright-report/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {},
  },
  {
    files: ['probe/**/*.ts'],
    rules: restrict([
      { regex: '^(\\.\\./)+(server|src|db)(/|$)', message: 'probe/ is a standalone library: it must not import server/, src/ or db/.' },
    ]),
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: restrict([
      { regex: '^(\\.\\./)+server/(?!contracts/)', allowTypeImports: true, message: 'src/ may import only types from server/, plus server/contracts/ schemas.' },
      { regex: '^(\\.\\./)+probe/(?!contract$)', allowTypeImports: true, message: 'src/ may import only types from probe/, plus probe/contract.' },
      { regex: '^(\\.\\./)+db/', allowTypeImports: true, message: 'src/ may import only types from db/.' },
    ]),
  },
  {
    files: ['server/contracts/**/*.ts'],
    rules: restrict([
      { regex: '^(\\.\\./)+(features|trpc|http|auth|worker|rest|db)/|^(pg|kysely|express)$', message: 'server/contracts/ is shared with the browser: zod and pure data only.' },
    ]),
  },
);
