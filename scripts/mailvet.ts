// `mailvet <command>`: the project's CLI.
//   mailvet verify …      verify addresses from stdin (the probe library; see probe/cli.ts)
//   mailvet probe         run a probe daemon (PROBE_PORT, PROBE_TOKEN)
//   mailvet accounts …    operator commands on accounts (set-plan, grant-credits)
//   mailvet jobs …        operator commands on validation jobs (list, show, replay)
//   mailvet mcp           MCP server over stdio for AI assistants (MAILVET_URL, MAILVET_API_KEY)
import { runProbeCli } from '../probe/cli';
import { runMcpCommand } from './cli/mcp';
import { runOperatorCli } from './cli/operator';

const [command] = process.argv.slice(2);
if (command === 'verify' || command === 'probe') {
  await runProbeCli(process.argv.slice(2));
} else if (command === 'mcp') {
  const code = await runMcpCommand(process.env);
  if (code !== null) process.exitCode = code;
} else {
  process.exitCode = await runOperatorCli(process.argv);
}
