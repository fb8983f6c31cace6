import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, startScriptedSmtp, startSmtpServer, type RunningServer } from '../testing/fake-smtp';
import { runSession, type SessionParams } from './session';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const track = <T extends RunningServer>(s: T): T => (servers.push(s), s);

const params = (port: number, rcpts: string[], over: Partial<SessionParams> = {}): SessionParams => ({
  ip: '127.0.0.1',
  port,
  host: 'mx.fake.test',
  heloName: 'probe.test',
  mailFrom: 'verify@probe.test',
  rcpts,
  startTls: true,
  connectTimeoutMs: 1500,
  bannerTimeoutMs: 1500,
  replyTimeoutMs: 1500,
  ...over,
});

const EHLO_PIPE = '250-fake.test\r\n250-PIPELINING\r\n250 8BITMIME';

describe('SMTP session against smtp-server', () => {
  it('upgrades with STARTTLS (self-signed accepted), pipelines and asks several recipients in one session', async () => {
    const srv = track(await startSmtpServer({ rcpt: (a) => (a.startsWith('nobody') ? [550, '5.1.1 User unknown'] : null) }));
    const res = await runSession(params(srv.port, ['alice@fake.test', 'nobody@fake.test', 'bob@fake.test']));
    expect(res.outcome).toBe('ok');
    expect(res.tls).toBe(true);
    expect(res.pipelining).toBe(true);
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250, 550, 250]);
    expect(res.rcptReplies[1]).toMatchObject({ stage: 'rcpt', enhanced: '5.1.1', text: 'User unknown' });
    expect(srv.counters.connections).toBe(1);
    expect(srv.counters.rcptsPerSession).toEqual([3]);
  });

  it('reports 452 4.5.3 beyond the server recipient limit', async () => {
    const srv = track(await startSmtpServer({ maxRecipients: 2 }));
    const res = await runSession(params(srv.port, ['a@f.test', 'b@f.test', 'c@f.test', 'd@f.test']));
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250, 250, 452, 452]);
  });

  it('skips STARTTLS when told to', async () => {
    const srv = track(await startSmtpServer({}));
    const res = await runSession(params(srv.port, ['a@f.test'], { startTls: false }));
    expect(res.tls).toBe(false);
    expect(res.rcptReplies[0]?.code).toBe(250);
  });
});

describe('SMTP session against scripted servers', () => {
  it('sends MAIL and all RCPTs in one packet when PIPELINING is offered', async () => {
    const srv = track(
      await startScriptedSmtp({
        reply: (line) => (line.startsWith('EHLO') ? EHLO_PIPE : line.startsWith('QUIT') ? '221 bye' : '250 ok'),
      }),
    );
    await runSession(params(srv.port, ['a@f.test', 'b@f.test']));
    await new Promise((r) => setTimeout(r, 20));
    expect(srv.packets[0]).toContain('MAIL FROM:<verify@probe.test>\r\nRCPT TO:<a@f.test>\r\nRCPT TO:<b@f.test>\r\nQUIT\r\n');
  });

  it('waits for each reply when PIPELINING is not offered', async () => {
    const srv = track(await startScriptedSmtp({ reply: (line) => (line.startsWith('EHLO') ? '250 fake.test' : '250 ok') }));
    const res = await runSession(params(srv.port, ['a@f.test', 'b@f.test']));
    expect(res.pipelining).toBe(false);
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250, 250]);
    expect(srv.packets[0]?.every((p) => p.split('\r\n').filter(Boolean).length === 1)).toBe(true);
  });

  it('falls back to HELO when EHLO is refused', async () => {
    const srv = track(await startScriptedSmtp({ reply: (line) => (line.startsWith('EHLO') ? '502 5.5.2 Command not recognized' : '250 ok') }));
    const res = await runSession(params(srv.port, ['a@f.test']));
    expect(res.outcome).toBe('ok');
    expect(res.transcript.map((t) => `${t.stage} ${t.code}`)).toEqual(['banner 220', 'ehlo 502', 'helo 250', 'mail 250']);
    expect(srv.commandsSeen[0]?.[1]).toBe('HELO probe.test');
  });

  it('reads multi-line replies with enhanced codes', async () => {
    const srv = track(
      await startScriptedSmtp({
        reply: (line) => (line.startsWith('RCPT') ? '550-5.1.1 The account does not\r\n550 5.1.1 exist.' : line.startsWith('EHLO') ? EHLO_PIPE : '250 ok'),
      }),
    );
    const res = await runSession(params(srv.port, ['a@f.test']));
    expect(res.rcptReplies[0]).toEqual({ stage: 'rcpt', code: 550, enhanced: '5.1.1', text: 'The account does not exist.' });
  });

  it('calls a refused connection unreachable', async () => {
    const res = await runSession(params(await closedPort(), ['a@f.test']));
    expect(res.outcome).toBe('unreachable');
    expect(res.detail).toMatch(/ECONNREFUSED/);
  });

  it('times out a silent server at the banner', async () => {
    const srv = track(await startScriptedSmtp({ banner: null, reply: () => '250 ok' }));
    const t = Date.now();
    const res = await runSession(params(srv.port, ['a@f.test'], { bannerTimeoutMs: 150 }));
    expect(res.outcome).toBe('unreachable');
    expect(res.detail).toMatch(/timeout after banner/);
    expect(Date.now() - t).toBeLessThan(1500);
  });

  it('waits out a tarpit banner that arrives within the banner timeout', async () => {
    const srv = track(await startScriptedSmtp({ bannerDelayMs: 200, reply: (l) => (l.startsWith('EHLO') ? EHLO_PIPE : '250 ok') }));
    const res = await runSession(params(srv.port, ['a@f.test'], { bannerTimeoutMs: 2000 }));
    expect(res.outcome).toBe('ok');
  });

  it('times out a reply that never comes, keeping the replies already read', async () => {
    const srv = track(
      await startScriptedSmtp({
        reply: (line) => (line.startsWith('EHLO') ? '250 fake.test' : line.includes('<b@') ? null : '250 ok'),
      }),
    );
    const res = await runSession(params(srv.port, ['a@f.test', 'b@f.test'], { replyTimeoutMs: 150 }));
    expect(res.outcome).toBe('ok');
    expect(res.rcptReplies.map((r) => r?.code ?? null)).toEqual([250, null]);
    expect(res.detail).toMatch(/timeout/);
  });

  it('ends early on a 421 greeting (busy), a 554 greeting (refused) and a 4xx/5xx MAIL FROM', async () => {
    const busy = track(await startScriptedSmtp({ banner: '421 4.3.2 busy', reply: () => '250 ok' }));
    expect((await runSession(params(busy.port, ['a@f.test']))).outcome).toBe('busy');
    const refused = track(await startScriptedSmtp({ banner: '554 5.7.1 go away', reply: () => '250 ok' }));
    const r = await runSession(params(refused.port, ['a@f.test']));
    expect(r.outcome).toBe('refused');
    expect(r.decisive).toMatchObject({ stage: 'banner', code: 554, enhanced: '5.7.1' });
    const tempMail = track(await startScriptedSmtp({ reply: (l) => (l.startsWith('MAIL') ? '451 4.7.1 later' : '250 ok') }));
    expect((await runSession(params(tempMail.port, ['a@f.test']))).outcome).toBe('temp_fail');
  });

  it('calls onClosed once the socket is gone', async () => {
    const srv = track(await startScriptedSmtp({ reply: (l) => (l.startsWith('QUIT') ? '221 bye' : '250 ok') }));
    let closed = 0;
    await runSession(params(srv.port, ['a@f.test'], { onClosed: () => closed++ }));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(1);
    expect(srv.counters.current).toBe(0);
  });
});

describe('a server whose TLS is old (TLS 1.0 only, as older Exchange and appliances still run) and that requires it before MAIL', () => {
  // Certificates are never checked (we only ask), so an old protocol is no reason to talk in plain
  // text: such a server refuses MAIL without TLS (530 5.7.0), and every address came back policy_block.
  it('is spoken to in TLS, and its answers are read', async () => {
    const srv = track(
      await startSmtpServer({
        minVersion: 'TLSv1',
        maxVersion: 'TLSv1',
        ciphers: 'DEFAULT:@SECLEVEL=0',
        rcpt: (a) => (a.startsWith('nobody') ? [550, '5.1.1 User unknown'] : null),
        onMailFrom(_address, session, cb) {
          if (!session.secure) return cb(Object.assign(new Error('5.7.0 Must issue a STARTTLS command first'), { responseCode: 530 }));
          cb();
        },
      }),
    );
    const res = await runSession(params(srv.port, ['alice@fake.test', 'nobody@fake.test']));
    expect(res.outcome, res.detail ?? '').toBe('ok');
    expect(res.tls).toBe(true);
    expect(res.rcptReplies.map((r) => r?.code)).toEqual([250, 550]);
  });
});
