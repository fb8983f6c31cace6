// `mailvet verify` (tsx probe/cli.ts verify) on the simulated mail internet: addresses on stdin,
// one JSON line per input on stdout, exit code 0.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScenarios, startMailWorld, type MailWorld } from '../mailworld/index';
import { collectOutput } from './mailworld-helpers';

const root = fileURLToPath(new URL('../../', import.meta.url));
const domains = buildScenarios().filter((d) => ['normal', 'catch-all', 'nxdomain', 'mailbox-states', 'null-mx'].includes(d.domain.split('.')[0] ?? ''));

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({ domains });
});
afterAll(async () => {
  await world?.stop();
});

function runCli(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(`${root}node_modules/.bin/tsx`, ['probe/cli.ts', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const done = collectOutput(child);
  child.stdin.end(stdin);
  return done;
}

describe('mailvet verify CLI on the mail world', () => {
  it('writes one JSON line per input line with the documented fields', { timeout: 30_000 }, async () => {
    const inputs = [
      'alice@normal.mailworld.test',
      'ghost@normal.mailworld.test',
      'whoever@Catch-All.mailworld.test',
      'gone@mailbox-states.mailworld.test',
      'alice@nxdomain.mailworld.test',
      'alice@null-mx.mailworld.test',
      'not an address',
    ];
    const { code, stdout, stderr } = await runCli(
      ['verify', '--dns-server', world.dnsServer, '--smtp-port', String(world.smtpPort), '--allow-private-networks', '--timeout-ms', '1500'],
      `${inputs.join('\n')}\n`,
    );
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(inputs.length);
    const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const row of rows) {
      for (const key of ['email', 'verdict', 'result', 'reason', 'catch_all', 'disposable', 'role', 'free_provider', 'score', 'mx_hosts', 'suggestion', 'ms']) {
        expect(row, `missing ${key}`).toHaveProperty(key);
      }
    }
    const got = Object.fromEntries(rows.map((r) => [String(r.email), `${String(r.verdict)}/${String(r.reason)}`]));
    expect(got).toEqual({
      'alice@normal.mailworld.test': 'deliverable/accepted',
      'ghost@normal.mailworld.test': 'undeliverable/mailbox_not_found',
      'whoever@Catch-All.mailworld.test': 'risky/catch_all',
      'gone@mailbox-states.mailworld.test': 'undeliverable/mailbox_disabled',
      'alice@nxdomain.mailworld.test': 'undeliverable/no_domain',
      'alice@null-mx.mailworld.test': 'undeliverable/null_mx',
      'not an address': 'undeliverable/syntax',
    });
    // The world's ground truth agrees with the literal expectations above.
    for (const e of inputs.slice(0, 6)) {
      const [local, domain] = e.split('@') as [string, string];
      const t = world.truth.get(`${local}@${domain.toLowerCase()}`);
      expect(`${t?.verdict}/${t?.reason}`).toBe(got[e]);
    }
  });
});
