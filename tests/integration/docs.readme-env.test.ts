// The README's "Configuration" tables against the code that reads the environment: every variable
// the zod schemas (server/env.ts, probe/env.ts) take is in its table with the default the code
// applies, every variable in the tables is read, every other variable a process reads is named in the
// README, and every production refusal is listed. A variable added, renamed or re-defaulted without
// its README line fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeEnvSchema, probeOptionsFromEnv, fleetRcptBudget, parseProbeEnv, daemonSettingsFromEnv } from '../../probe/env';
import { resolveOptions } from '../../probe/options';
import { envSchema, productionRefusals, readEnv } from '../../server/env';

const readme = fs.readFileSync(path.resolve('README.md'), 'utf8');
const config = readme.slice(readme.indexOf('\n## Configuration'), readme.indexOf('\n## Request limits'));

interface Row {
  names: string[];
  /** The Default cell, split like the names when a row lists several (`a` / `b`). */
  defaults: string[];
  cell: string;
  text: string;
}

/** The two tables of the section: the app processes' first, the probe's second. */
function tables(): Row[][] {
  const out: Row[][] = [];
  let current: Row[] | null = null;
  for (const line of config.split('\n')) {
    if (!line.startsWith('| `')) {
      if (current && current.length > 0 && !line.startsWith('|')) current = null;
      continue;
    }
    if (!current) out.push((current = []));
    const [, nameCell = '', defaultCell = ''] = line.split(' | ').length >= 3 ? ['', ...line.slice(2).split(' | ')] : [];
    const names = [...nameCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);
    const parts = defaultCell.split(' / ');
    current.push({ names, defaults: names.map((_, i) => (parts.length === names.length ? parts[i]! : defaultCell)), cell: defaultCell, text: line });
  }
  return out;
}

const [serverTable = [], probeTable = []] = tables();
const byName = (rows: Row[]) => new Map(rows.flatMap((r) => r.names.map((n, i) => [n, { ...r, default: r.defaults[i]! }] as const)));
const serverRows = byName(serverTable);
const probeRows = byName(probeTable);
/** The first `code` of a Default cell: the value itself. */
const firstCode = (cell: string) => /`([^`]*)`/.exec(cell)?.[1];

describe('README configuration tables', () => {
  it('list exactly the variables the app processes read (server/env.ts)', () => {
    expect([...serverRows.keys()].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('list exactly the variables the probe reads (probe/env.ts)', () => {
    expect([...probeRows.keys()].sort()).toEqual(Object.keys(probeEnvSchema.shape).sort());
  });

  it('give each app variable the default its schema applies', () => {
    const shape = envSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
    const checked: string[] = [];
    for (const [name, field] of Object.entries(shape)) {
      const parsed = field.safeParse(undefined);
      if (!parsed.success || parsed.data === undefined) continue;
      expect(firstCode(serverRows.get(name)!.default), name).toBe(String(parsed.data));
      checked.push(name);
    }
    expect(checked).toContain('PORT');
  });

  it('give the defaults readEnv works out (HOST, DEV_TOOLS, the auth limits, the API rate store)', () => {
    const plain = readEnv({});
    const test = readEnv({ NODE_ENV: 'test' });
    const laptop = readEnv({}, { laptop: true });
    const cell = (n: string) => serverRows.get(n)!.cell;
    expect(plain.HOST).toBe('0.0.0.0');
    expect(laptop.HOST).toBe('127.0.0.1');
    expect(test.HOST).toBe('127.0.0.1');
    expect(cell('HOST')).toBe('`127.0.0.1` with `DEV_TOOLS` on (`npm start` with the embedded database, tests), else `0.0.0.0`');
    expect([plain.DEV_TOOLS, laptop.DEV_TOOLS, test.DEV_TOOLS, readEnv({ DATABASE_URL: 'postgres://x/y' }, { laptop: true }).DEV_TOOLS]).toEqual([false, true, true, false]);
    expect(cell('DEV_TOOLS')).toBe('on for `npm start` with the embedded database and for `NODE_ENV=test`; otherwise off');
    expect([plain.AUTH_RATE_LIMIT, test.AUTH_RATE_LIMIT]).toEqual([true, false]);
    expect(cell('AUTH_RATE_LIMIT')).toBe('on (off when `NODE_ENV=test`)');
    expect(cell('AUTH_ANSWER_FLOOR_MS')).toBe(`\`${plain.AUTH_ANSWER_FLOOR_MS}\` (\`${test.AUTH_ANSWER_FLOOR_MS}\` when \`NODE_ENV=test\`)`);
    expect([plain.API_RATE_LIMIT_STORE, readEnv({ WEB_PROCESSES: '2' }).API_RATE_LIMIT_STORE]).toEqual(['memory', 'postgres']);
    expect(cell('API_RATE_LIMIT_STORE')).toBe('`memory` with one web process, `postgres` with `WEB_PROCESSES` > 1');
  });

  it('give each probe variable the default the daemon or the engine applies', () => {
    const daemon = daemonSettingsFromEnv({ PROBE_TOKEN: 't' });
    const engine = resolveOptions(probeOptionsFromEnv({}));
    const budget = fleetRcptBudget(parseProbeEnv({ PROBE_FLEET_MX_RCPT_PER_MINUTE: '60', PROBE_FLEET_SIZE: '2' }))!;
    const expected: Record<string, string> = {
      PROBE_PORT: String(daemon.port),
      PROBE_HOST: daemon.host,
      PROBE_DRAIN_MS: String(daemon.drainMs),
      PROBE_SMTP_PORT: String(engine.smtpPort),
      PROBE_MAX_CONN_PER_IP: String(engine.maxConnectionsPerIp),
      PROBE_MAX_RCPTS_PER_SESSION: String(engine.maxRcptsPerSession),
      PROBE_GLOBAL_CONCURRENCY: String(engine.globalConcurrency),
      PROBE_DNS_TIMEOUT_MS: String(engine.dnsTimeoutMs),
      PROBE_CONNECT_TIMEOUT_MS: String(engine.connectTimeoutMs),
      PROBE_BANNER_TIMEOUT_MS: String(engine.bannerTimeoutMs),
      PROBE_REPLY_TIMEOUT_MS: String(engine.replyTimeoutMs),
      PROBE_MX_HEAD_START_MS: String(engine.mxHeadStartMs),
      PROBE_FLEET_MX_RCPT_WINDOW_MS: String(budget.windowMs),
    };
    for (const [name, value] of Object.entries(expected)) expect(firstCode(probeRows.get(name)!.default), name).toBe(value);
    expect(engine.mailFrom).toBe(`verify@${engine.heloName}`);
    expect(probeRows.get('PROBE_MAIL_FROM')!.default).toBe('`verify@<helo>`');
    expect(engine.rdapBaseUrl).toBeNull();
    expect(engine.dnsblZones).toEqual([]);
    expect(() => daemonSettingsFromEnv({})).toThrow(/PROBE_TOKEN is required/);
    expect(probeRows.get('PROBE_TOKEN')!.default).toBe('required');
  });

  it('list every production refusal in the NODE_ENV row', () => {
    const row = serverRows.get('NODE_ENV')!.text;
    const everythingWrong = envSchema.parse({
      NODE_ENV: 'production',
      BASE_URL: 'http://mailvet.example.com',
      BETTER_AUTH_SECRET: 'short',
      PROBE_TOKEN: 'short',
      DEV_TOOLS: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      RAZORPAY_KEY_ID: 'k',
      RAZORPAY_KEY_SECRET: 's',
      RAZORPAY_BASE_URL: 'http://127.0.0.1:1',
      AUTH_RATE_LIMIT: 'false',
      AUTH_ANSWER_FLOOR_MS: '0',
    });
    const refused = new Set(productionRefusals(everythingWrong).map((line) => line.split(':')[0]!));
    refused.add(productionRefusals({ ...everythingWrong, RAZORPAY_WEBHOOK_SECRET: 'short' }).map((l) => l.split(':')[0]!).find((n) => n === 'RAZORPAY_WEBHOOK_SECRET')!);
    expect(refused.size).toBeGreaterThanOrEqual(10);
    for (const name of refused) expect(row, name).toContain(`\`${name}`);
    // And the probe's own (probe/env.ts).
    expect(() => probeOptionsFromEnv({ NODE_ENV: 'production', PROBE_ALLOW_PRIVATE_NETWORKS: '1' })).toThrow(/PROBE_ALLOW_PRIVATE_NETWORKS/);
    expect(() => probeOptionsFromEnv({ NODE_ENV: 'production', PROBE_FLEET_MX_RCPT_PER_MINUTE: '60', PROBE_FLEET_SIZE: '1', PROBE_FLEET_MX_RCPT_WINDOW_MS: '1000' })).toThrow(/PROBE_FLEET_MX_RCPT_WINDOW_MS/);
    expect(row).toContain('`PROBE_ALLOW_PRIVATE_NETWORKS`');
    expect(row).toContain('`PROBE_FLEET_MX_RCPT_WINDOW_MS` under 60000');
  });
});

/** Every file a process runs (not the tests): where a variable could be read outside the schemas. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('variables read outside the schemas', () => {
  // Set by the bench scripts for the processes they start (`--web-processes`), never by an operator.
  const internal = new Set(['BENCH_WEB_PROCESSES']);
  it('are each named in the README', () => {
    const files = ['server', 'probe', 'scripts', 'db'].flatMap((d) => sources(path.resolve(d)));
    const read = new Set<string>();
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\b(?:process\.env|env|source)(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g)) read.add(m[1] ?? m[2]!);
    }
    const dockerfile = fs.readFileSync(path.resolve('Dockerfile'), 'utf8');
    for (const m of dockerfile.matchAll(/\$\{?([A-Z][A-Z0-9_]+)/g)) read.add(m[1]!);
    expect(read.has('MAILVET_URL'), 'the scan finds reads outside the schemas').toBe(true);
    const missing = [...read].filter((n) => !internal.has(n) && !readme.includes(`\`${n}\``) && !readme.includes(`\`${n}=`));
    expect(missing).toEqual([]);
  });
});
