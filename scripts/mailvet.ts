// `mailvet <command>`: the project's CLI.
//   mailvet verify …      verify addresses from stdin (the probe library; see probe/cli.ts)
//   mailvet probe         run a probe daemon (PROBE_PORT, PROBE_TOKEN)
//   mailvet accounts …    operator commands on accounts (set-plan, grant-credits)
//   mailvet jobs …        operator commands on validation jobs (list, show, replay)
import { runProbeCli } from '../probe/cli';
import { runOperatorCli } from './cli/operator';

const [command] = process.argv.slice(2);
if (command === 'verify' || command === 'probe') {
  await runProbeCli(process.argv.slice(2));
} else {
  process.exitCode = await runOperatorCli(process.argv);
}
