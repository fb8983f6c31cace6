import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedSmtp, type RunningServer } from '../testing/fake-smtp';
import { runProbe, smtpContext } from '../testing/domain-probe';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const EHLO = '250-fake.test\r\n250 PIPELINING';

const ctx = smtpContext;
const run = runProbe;

/** A server whose RCPT replies come from `rcpt(address, attempt)`; it counts RCPTs per session. */
async function server(rcpt: (address: string, attempt: number) => string, o: { banner?: (conn: number) => string } = {}) {
  const attempts = new Map<string, number>();
  let conns = 0;
  const srv = await startScriptedSmtp({
    banner: '220 fake.test ESMTP',
    reply: (line, state) => {
      if (state.commands.length === 1 && o.banner) {
        // banner override handled below
      }
      if (line.startsWith('EHLO')) return EHLO;
      if (line.startsWith('RCPT')) {
        const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
        const n = (attempts.get(address) ?? 0) + 1;
        attempts.set(address, n);
        return rcpt(address, n);
      }
      if (line.startsWith('QUIT')) return '221 bye';
      return '250 ok';
    },
  });
  void conns;
  servers.push(srv);
  return srv;
}

const rcptCounts = (srv: { commandsSeen: string[][] }) => srv.commandsSeen.map((c) => c.filter((l) => l.startsWith('RCPT')).length);

describe('probing one domain', () => {
  it('packs recipients into sessions of at most the limit, random mailbox last in its session, within the connection cap', async () => {
    const srv = await server((a) => (a.startsWith('x') ? '550 5.1.1 no such user' : '250 ok'));
    const addresses = Array.from({ length: 45 }, (_, i) => `user${i}@d.test`);
    const r = await run({ targets: [{ host: 'mx.d.test', ip: '127.0.0.1', priority: 10 }], addresses, randomAddress: 'xrandom@d.test', knownCatchAll: null, ctx: ctx(srv.port, {}, { perIp: 2, rcpts: 20 }), deadlineMs: 1000, retryDelaysMs: [] });
    expect(r.catchAll).toBe(false);
    expect(r.settled.size).toBe(45);
    expect([...r.settled.values()].every((s) => s.outcome.finding === 'accepted' && s.catchAll === false)).toBe(true);
    expect(rcptCounts(srv).sort()).toEqual([20, 20, 6]);
    expect(srv.counters.maxConcurrent).toBeLessThanOrEqual(2);
    // Asked after the real mailboxes of its session (a tarpit on unknown recipients holds up none of them).
    const withRandom = srv.commandsSeen.find((c) => c.includes('RCPT TO:<xrandom@d.test>')) ?? [];
    expect(withRandom.filter((l) => l.startsWith('RCPT')).at(-1)).toBe('RCPT TO:<xrandom@d.test>');
  });

  it('obeys 452: finishes the session and continues in new ones with a lower limit', async () => {
    let inSession = 0;
    const srv = await startScriptedSmtp({
      reply: (line, state) => {
        if (line.startsWith('EHLO')) return EHLO;
        if (line.startsWith('MAIL')) {
          inSession = 0;
          return '250 ok';
        }
        if (line.startsWith('RCPT')) {
          void state;
          inSession++;
          return inSession > 7 ? '452 4.5.3 Too many recipients' : '250 ok';
        }
        return line.startsWith('QUIT') ? '221 bye' : '250 ok';
      },
    });
    servers.push(srv);
    const c = ctx(srv.port, {}, { perIp: 1, rcpts: 20 });
    const addresses = Array.from({ length: 30 }, (_, i) => `u${i}@d.test`);
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses, randomAddress: null, knownCatchAll: false, ctx: c, deadlineMs: 2000, retryDelaysMs: [] });
    expect([...r.settled.values()].every((s) => s.outcome.finding === 'accepted')).toBe(true);
    expect(c.politeness.rcptLimit('127.0.0.1')).toBe(7);
    expect(rcptCounts(srv).slice(1).every((n) => n <= 7)).toBe(true);
  });

  it('retries greylisted recipients on the schedule against the same IP with the same MAIL FROM', async () => {
    const srv = await server((a, n) => (n <= 2 ? '451 4.7.1 Greylisted, try again later' : a.startsWith('gone') ? '550 5.1.1 unknown' : '250 ok'));
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['alice@d.test', 'gone@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(srv.port), deadlineMs: 2000, retryDelaysMs: [50, 80, 100] });
    expect(r.settled.get('alice@d.test')?.outcome).toMatchObject({ finding: 'accepted', retries: 2, mxIp: '127.0.0.1' });
    expect(r.settled.get('gone@d.test')?.outcome.finding).toBe('mailbox_not_found');
    const froms = srv.commandsSeen.flatMap((c) => c.filter((l) => l.startsWith('MAIL')));
    expect(new Set(froms)).toEqual(new Set(['MAIL FROM:<verify@probe.test>']));
  });

  it('waits out a greylisting window longer than its retry ladder when the deadline allows: one last retry before the deadline', async () => {
    const t0 = Date.now();
    const srv = await server((a) => (Date.now() - t0 < 700 ? '451 4.7.1 Greylisted, try again later' : a.startsWith('gone') ? '550 5.1.1 unknown' : '250 ok'));
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['alice@d.test', 'gone@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(srv.port), deadlineMs: 1500, retryDelaysMs: [100, 100] });
    expect(r.settled.get('alice@d.test')?.outcome).toMatchObject({ finding: 'accepted', retries: 3 });
    expect(r.settled.get('gone@d.test')?.outcome.finding).toBe('mailbox_not_found');
  });

  it('gives up on greylisting at the deadline (greylisted, never invalid)', async () => {
    const srv = await server(() => '450 4.2.0 try later');
    const t = Date.now();
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test'], randomAddress: null, knownCatchAll: null, ctx: ctx(srv.port), deadlineMs: 400, retryDelaysMs: [100, 100, 100, 100, 100] });
    expect(r.settled.get('a@d.test')?.outcome.finding).toBe('greylisted');
    expect(r.settled.get('a@d.test')?.outcome.retries).toBeGreaterThanOrEqual(2);
    expect(Date.now() - t).toBeLessThan(2500);
  });

  it('falls through to the next MX when the first refuses connections', async () => {
    const srv = await server(() => '250 ok');
    // nothing listens on 127.0.0.2 at this port
    const r = await run({ targets: [{ host: 'mx1', ip: '127.0.0.2', priority: 10 }, { host: 'mx2', ip: '127.0.0.1', priority: 20 }], addresses: ['a@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(srv.port), deadlineMs: 1000, retryDelaysMs: [] });
    expect(r.settled.get('a@d.test')?.outcome).toMatchObject({ finding: 'accepted', mxHost: 'mx2', mxIp: '127.0.0.1', retries: 1 });
  });

  it('calls every MX down unreachable', async () => {
    const r = await run({ targets: [{ host: 'mx1', ip: '127.0.0.2', priority: 10 }, { host: 'mx2', ip: '127.0.0.3', priority: 10 }], addresses: ['a@d.test'], randomAddress: 'x@d.test', knownCatchAll: null, ctx: ctx(1), deadlineMs: 1000, retryDelaysMs: [] });
    expect(r.settled.get('a@d.test')?.outcome.finding).toBe('smtp_unreachable');
    expect(r.catchAll).toBeNull();
  });

  it('detects a catch-all: the random mailbox is accepted too', async () => {
    const srv = await server(() => '250 ok');
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test'], randomAddress: 'xq@d.test', knownCatchAll: null, ctx: ctx(srv.port), deadlineMs: 1000, retryDelaysMs: [] });
    expect(r.catchAll).toBe(true);
    expect(r.settled.get('a@d.test')?.catchAll).toBe(true);
    expect(r.settled.get('a@d.test')?.outcome.replies.at(-1)).toMatchObject({ stage: 'rcpt_random', code: 250 });
    expect(r.settled.has('xq@d.test')).toBe(false);
  });

  it('backs off after a 421 greeting and succeeds on a later connection', async () => {
    let conn = 0;
    const srv = await startScriptedSmtp({
      banner: '220 fake.test',
      reply: (line) => (line.startsWith('EHLO') ? (++conn === 1 ? '421 4.7.0 too busy' : EHLO) : line.startsWith('QUIT') ? '221 bye' : '250 ok'),
    });
    servers.push(srv);
    const c = ctx(srv.port);
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test'], randomAddress: null, knownCatchAll: false, ctx: c, deadlineMs: 3000, retryDelaysMs: [] });
    expect(r.settled.get('a@d.test')?.outcome).toMatchObject({ finding: 'accepted', retries: 1 });
    expect(srv.counters.connections).toBe(2);
  });

  it('settles a policy refusal of our sender as policy_block for everyone', async () => {
    const srv = await startScriptedSmtp({ reply: (l) => (l.startsWith('EHLO') ? EHLO : l.startsWith('MAIL') ? '550 5.7.1 sender rejected' : '250 ok') });
    servers.push(srv);
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test'], randomAddress: 'x@d.test', knownCatchAll: null, ctx: ctx(srv.port), deadlineMs: 1000, retryDelaysMs: [] });
    expect([...r.settled.values()].map((s) => s.outcome.finding)).toEqual(['policy_block', 'policy_block']);
  });

  it('stops at once when aborted', async () => {
    const srv = await server(() => '451 4.7.1 later');
    const ac = new AbortController();
    const p = run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test'], randomAddress: null, knownCatchAll: false, ctx: ctx(srv.port), deadlineMs: 10_000, retryDelaysMs: [5000], signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const t = Date.now();
    await expect(p).rejects.toThrow(/aborted/);
    expect(Date.now() - t).toBeLessThan(1500);
  });
});

/** A server that counts RCPTs per session (MAIL starts a new count) and answers `over` past `cap` of them (null: no reply). */
function sessionCappedSmtp(cap: number, over: string | null, rcpt: (line: string) => string = () => '250 ok') {
  let inSession = 0;
  return startScriptedSmtp({
    reply: (line) => {
      if (line.startsWith('EHLO')) return EHLO;
      if (line.startsWith('MAIL')) return (inSession = 0), '250 ok';
      if (line.startsWith('RCPT')) return ++inSession > cap ? over : rcpt(line);
      return line.startsWith('QUIT') ? '221 bye' : '250 ok';
    },
  });
}

describe('sharing sessions between domains on one mail server', () => {
  it('asks recipients of several domains hosted on the same address in one session', async () => {
    const { SessionPool } = await import('./session-pool');
    const srv = await server((a) => (a.startsWith('x') ? '550 5.1.1 unknown' : '250 ok'));
    const c = ctx(srv.port, { pool: new SessionPool() }, { perIp: 1, rcpts: 20 });
    const common = { knownCatchAll: null, ctx: c, deadlineMs: 1000, retryDelaysMs: [] };
    const target = [{ host: 'mx.shared.test', ip: '127.0.0.1', priority: 10 }];
    const [a, b] = await Promise.all([
      run({ ...common, targets: target, addresses: ['a1@one.test', 'a2@one.test'], randomAddress: 'x1@one.test' }),
      run({ ...common, targets: target, addresses: ['b1@two.test'], randomAddress: 'x2@two.test' }),
    ]);
    expect(a.settled.size + b.settled.size).toBe(3);
    expect(a.catchAll).toBe(false);
    expect(b.catchAll).toBe(false);
    expect(srv.counters.connections).toBe(1);
    expect(rcptCounts(srv)).toEqual([5]);
  });

  it('treats a 421 after some RCPTs as the server per-session limit and carries on at once', async () => {
    const srv = await sessionCappedSmtp(2, '421 4.4.2 too much activity, closing');
    servers.push(srv);
    const c = ctx(srv.port, {}, { perIp: 1, rcpts: 20 });
    const t = Date.now();
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses: ['a@d.test', 'b@d.test', 'c@d.test', 'd@d.test', 'e@d.test'], randomAddress: null, knownCatchAll: false, ctx: c, deadlineMs: 3000, retryDelaysMs: [] });
    expect([...r.settled.values()].every((s) => s.outcome.finding === 'accepted')).toBe(true);
    expect(c.politeness.rcptLimit('127.0.0.1')).toBe(2);
    expect(Date.now() - t).toBeLessThan(1500); // no 421 backoff
  });
});

describe('servers that hang up mid-session', () => {
  it('continues in smaller sessions when a server drops the connection after a few RCPTs', async () => {
    // Past 3 RCPTs in one session the server hangs up (no reply).
    const srv = await sessionCappedSmtp(3, null, (line) => (line.includes('<bad') ? '550 5.1.1 unknown' : '250 ok'));
    servers.push(srv);
    const c = ctx(srv.port, { replyTimeoutMs: 200 }, { perIp: 1, rcpts: 20 });
    const addresses = ['a@d.test', 'bad1@d.test', 'b@d.test', 'c@d.test', 'bad2@d.test', 'd@d.test', 'e@d.test'];
    const r = await run({ targets: [{ host: 'mx', ip: '127.0.0.1', priority: 10 }], addresses, randomAddress: null, knownCatchAll: false, ctx: c, deadlineMs: 5000, retryDelaysMs: [] });
    expect(Object.fromEntries([...r.settled].map(([k, v]) => [k, v.outcome.finding]))).toEqual({
      'a@d.test': 'accepted',
      'bad1@d.test': 'mailbox_not_found',
      'b@d.test': 'accepted',
      'c@d.test': 'accepted',
      'bad2@d.test': 'mailbox_not_found',
      'd@d.test': 'accepted',
      'e@d.test': 'accepted',
    });
    expect(c.politeness.rcptLimit('127.0.0.1')).toBe(3);
  });
});

describe('remembering unreachable servers', () => {
  it('does not try an unreachable primary again for the next check of the domain', async () => {
    // Nothing listens on 127.0.0.2 at the live server's port: the primary refuses connections.
    const live = await server(() => '250 ok');
    const c = ctx(live.port, { bannerTimeoutMs: 300, unreachableUntil: new Map() });
    const targets = [
      { host: 'mx1', ip: '127.0.0.2', priority: 10 },
      { host: 'mx2', ip: '127.0.0.1', priority: 20 },
    ];
    const first = await run({ targets, addresses: ['a@d.test'], randomAddress: null, knownCatchAll: false, ctx: c, deadlineMs: 3000, retryDelaysMs: [] });
    expect(first.settled.get('a@d.test')?.outcome).toMatchObject({ finding: 'accepted', mxHost: 'mx2', retries: 1 });
    expect(c.unreachableUntil?.has('127.0.0.2')).toBe(true);
    const second = await run({ targets, addresses: ['b@d.test'], randomAddress: null, knownCatchAll: false, ctx: c, deadlineMs: 3000, retryDelaysMs: [] });
    expect(second.settled.get('b@d.test')?.outcome).toMatchObject({ finding: 'accepted', mxHost: 'mx2', retries: 0 });
  });
});
