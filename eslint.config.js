// Lint exists to keep DESIGN.md's folder rules from eroding:
//  - probe/ imports nothing from server/ or src/;
//  - src/ takes only types from server/, plus the shared zod schemas in server/contracts/;
//  - no SQL outside server/features/ and db/: the transports (rest/, trpc/, http/), worker tasks, the
//    worker runner, auth hooks, the mailer, the operator CLI and the benchmarks parse input, call a
//    domain service and map the answer (better-auth's own adapter config in server/auth is not SQL). Caught both ways SQL
//    can be written: a query-builder call (db.selectFrom(…), trx.updateTable(…), …) and kysely's
//    sql`…` template (or any value import of kysely).
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
});

const SQL_OUTSIDE_FEATURES = 'No SQL outside server/features/ and db/: call the domain service (server/features/<domain>/) instead.';
const noSql = {
  'no-restricted-syntax': [
    'error',
    { selector: "CallExpression > MemberExpression.callee[property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|with|withRecursive)$/]", message: SQL_OUTSIDE_FEATURES },
    { selector: "TaggedTemplateExpression[tag.name='sql']", message: SQL_OUTSIDE_FEATURES },
  ],
  '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'kysely', allowTypeImports: true, message: SQL_OUTSIDE_FEATURES }] }],
};

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
  {
    files: ['server/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['server/features/**', 'server/contracts/**'],
    rules: noSql,
  },
);
