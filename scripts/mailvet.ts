// `mailvet <command>`: the project's CLI.
//   mailvet verify …      verify addresses from stdin or a CSV, locally or on a probe fleet (scripts/cli/verify.ts)
//   mailvet probe         run a probe daemon (PROBE_PORT, PROBE_TOKEN)
//   mailvet accounts …    operator commands on accounts (set-plan, grant-credits, billing, set-billing, set-api-rate)
//   mailvet jobs …        operator commands on validation jobs (list, show, replay)
//   mailvet mcp           MCP server over stdio for AI assistants (MAILVET_URL, MAILVET_API_KEY)
// Each command loads only its own modules (the operator commands pull in the database and auth).

const [command] = process.argv.slice(2);
if (command === 'verify') {
  await (await import('./cli/verify')).runVerifyCli(process.argv.slice(2));
} else if (command === 'probe') {
  await (await import('../probe/cli')).runProbeCli(process.argv.slice(2));
} else if (command === 'mcp') {
  const code = await (await import('./cli/mcp')).runMcpCommand(process.env, process.argv.slice(3));
  if (code !== null) process.exitCode = code;
} else {
  process.exitCode = await (await import('./cli/operator')).runOperatorCli(process.argv);
}

export {};
