// Operator commands (accounts, jobs). Each talks to DATABASE_URL, or with none to the same
// embedded database `npm start` uses (also while the app is running), and writes the audit log.
import { Command } from 'commander';

export async function runOperatorCli(argv: string[]): Promise<number> {
  const program = new Command('mailvet')
    .description('Mailvet command line: verify addresses, run a probe daemon, operate accounts and jobs.')
    .exitOverride();
  program.command('verify').description('Verify addresses read one per line from stdin (see `mailvet verify --help`).');
  program.command('probe').description('Run a probe daemon (PROBE_PORT, PROBE_TOKEN).');
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    const code = (err as { exitCode?: number }).exitCode;
    return typeof code === 'number' ? code : 1;
  }
}
