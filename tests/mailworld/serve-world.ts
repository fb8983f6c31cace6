// Run a mail world as its own process (for e2e tests or manual runs):
//   tsx tests/mailworld/serve-world.ts [--bulk-addresses N] [--reply-delay-ms N] [--smtp-port N]
// Prints one JSON line — { dnsServer, smtpPort, rdapUrl, env: { PROBE_* } , emails } — then serves
// until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { defaultScenarios, generateBulkDomains, startMailWorld } from './index';

const { values } = parseArgs({
  options: {
    'bulk-addresses': { type: 'string', default: '0' },
    'reply-delay-ms': { type: 'string', default: '0' },
    'smtp-port': { type: 'string' },
  },
});

const bulk = Number(values['bulk-addresses']);
const world = await startMailWorld({
  domains: [...defaultScenarios, ...(bulk > 0 ? generateBulkDomains({ addresses: bulk }) : [])],
  replyDelayMs: Number(values['reply-delay-ms']),
  smtpPort: values['smtp-port'] ? Number(values['smtp-port']) : undefined,
});
process.stdout.write(
  `${JSON.stringify({ dnsServer: world.dnsServer, smtpPort: world.smtpPort, rdapUrl: world.rdapUrl, env: world.probeEnv(), emails: world.emails.length })}\n`,
);
const stop = (): void => {
  void world.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
