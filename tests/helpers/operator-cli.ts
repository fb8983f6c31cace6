// `mailvet accounts …` / `mailvet jobs …` run in-process against a test database, output captured.
import { runOperatorCli } from '../../scripts/cli/operator';

export interface OperatorRun {
  code: number;
  out: string;
  err: string;
}

/** A runner of operator commands on the database at `databaseUrl()` (read at each call: it is set in beforeAll). */
export function operatorCli(databaseUrl: () => string): (...args: string[]) => Promise<OperatorRun> {
  return async (...args) => {
    let out = '';
    let err = '';
    const code = await runOperatorCli(['node', 'mailvet', ...args], { out: (s) => (out += s), err: (s) => (err += s), env: { DATABASE_URL: databaseUrl(), DATA_DIR: '.data/test' } });
    return { code, out, err };
  };
}
