// A probe daemon sent a share "catch-all pending" (another node of the fleet is asking the domain's
// random mailbox): it asks none itself, answers rejected mailboxes at once, holds the accepted ones
// until the answer comes (POST /v1/catch-all), and asks itself when told nothing was learnt. Bad
// answers are refused with a 400 and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLines, call } from '../../probe/client/http';
import type { VerificationResult } from '../../probe/contract';
import { startProbeDaemon } from '../../probe/daemon/server';
import { startMailWorld, type DomainSpec, type MailWorld } from '../mailworld/index';
import { fleetProbeOptions } from './mailworld-helpers';

const TOKEN = 'peer-token';

function domain(name: string, ip: string, catchAll: boolean): DomainSpec {
  return { domain: name, scenario: 'split share', mx: [{ host: `mx.${name}`, priority: 10, ip }], mailboxes: { a: 'ok', b: 'ok' }, addresses: ['a', 'b', 'gone'], catchAll };
}
/** A silent primary MX and a backup that accepts every recipient (store and forward). */
function behindBackup(name: string, n: number): DomainSpec {
  return {
    domain: name,
    scenario: 'silent primary, accept-all backup',
    mx: [
      { host: `mx1.${name}`, priority: 10, ip: `127.96.1.${n}`, server: { mode: 'silent' } },
      { host: `mx2.${name}`, priority: 20, ip: `127.96.2.${n}`, server: { acceptAll: true } },
    ],
    mailboxes: { a: 'ok' },
    addresses: ['a', 'b'],
  };
}
const domains = [
  domain('strict.peer.test', '127.96.0.1', false),
  domain('open.peer.test', '127.96.0.2', true),
  domain('unsure.peer.test', '127.96.0.3', false),
  domain('early.peer.test', '127.96.0.4', false),
  behindBackup('late.backup.test', 1),
  behindBackup('hinted.backup.test', 2),
];

let world: MailWorld;
let daemon: { url: string; close(): Promise<void> };
beforeAll(async () => {
  world = await startMailWorld({ domains, replyDelayMs: 2 });
  daemon = await startProbeDaemon({ port: 0, host: '127.0.0.1', token: TOKEN, probe: { ...fleetProbeOptions(world), sourceIps: ['127.0.0.2'] } });
});
afterAll(async () => {
  await daemon?.close();
  await world?.stop();
});

/** Streams /v1/verify; `onLine` sees each result as it arrives. */
async function verify(body: object, onLine: (r: VerificationResult) => void): Promise<void> {
  const res = await call(`${daemon.url}/v1/verify`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  for await (const line of bodyLines(res)) onLine(JSON.parse(line) as VerificationResult);
}

async function answer(body: unknown, token = TOKEN): Promise<{ status: number; text: string }> {
  const res = await fetch(`${daemon.url}/v1/catch-all`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

const emailsOf = (d: string): string[] => ['a', 'b', 'gone'].map((l) => `${l}@${d}`);
const rcptsAt = (ip: string): number => world.counters.perIp.get(ip)?.rcpts ?? 0;

describe('a share sent "catch-all pending"', () => {
  it('asks no random mailbox, answers the unknown mailbox at once and the accepted ones once the peer says "not catch-all"', async () => {
    const seen: { r: VerificationResult; answered: boolean }[] = [];
    let answered = false;
    const done = verify({ emails: emailsOf('strict.peer.test'), depth: 'smtp', mode: 'bulk', catch_all_pending: ['strict.peer.test'] }, (r) => {
      seen.push({ r, answered });
      // The unknown mailbox does not depend on catch-all: it comes before the answer is given.
      if (r.email === 'gone@strict.peer.test') {
        answered = true;
        void answer({ domain: 'strict.peer.test', catch_all: false });
      }
    });
    await done;
    expect(seen.map((s) => s.r.email).sort()).toEqual(emailsOf('strict.peer.test').sort());
    expect(seen.find((s) => s.r.email === 'gone@strict.peer.test')?.answered).toBe(false);
    for (const s of seen.filter((x) => x.r.email !== 'gone@strict.peer.test')) {
      expect(s.answered).toBe(true); // held until the answer came
      expect(s.r).toMatchObject({ verdict: 'deliverable', reason: 'accepted', catch_all: false });
      expect(s.r.evidence.detail).toContain('catch-all ruled out by an earlier random-mailbox check');
    }
    expect(seen.find((s) => s.r.email === 'gone@strict.peer.test')?.r).toMatchObject({ verdict: 'undeliverable', reason: 'mailbox_not_found' });
    expect(rcptsAt('127.96.0.1')).toBe(3); // three mailboxes, no random one
  });

  it('turns accepted mailboxes into catch-all when the peer found the domain accepts everyone', async () => {
    const results: VerificationResult[] = [];
    const done = verify({ emails: ['a@open.peer.test', 'b@open.peer.test'], depth: 'smtp', mode: 'bulk', catch_all_pending: ['open.peer.test'] }, (r) => results.push(r));
    await new Promise((r) => setTimeout(r, 300));
    expect(results).toEqual([]); // both accepted, both waiting
    expect((await answer({ domain: 'open.peer.test', catch_all: true })).status).toBe(204);
    await done;
    expect(results.map((r) => [r.email, r.verdict, r.reason, r.catch_all])).toEqual(
      expect.arrayContaining([
        ['a@open.peer.test', 'risky', 'catch_all', true],
        ['b@open.peer.test', 'risky', 'catch_all', true],
      ]),
    );
    expect(rcptsAt('127.96.0.2')).toBe(2);
  });

  it('asks the random mailbox itself when the peer learnt nothing', async () => {
    const results: VerificationResult[] = [];
    const done = verify({ emails: emailsOf('unsure.peer.test'), depth: 'smtp', mode: 'bulk', catch_all_pending: ['unsure.peer.test'] }, (r) => results.push(r));
    await new Promise((r) => setTimeout(r, 200));
    expect((await answer({ domain: 'unsure.peer.test', catch_all: null })).status).toBe(204);
    await done;
    expect(results.filter((r) => r.verdict === 'deliverable').map((r) => r.email).sort()).toEqual(['a@unsure.peer.test', 'b@unsure.peer.test']);
    expect(results.every((r) => r.catch_all === false || r.email.startsWith('gone@'))).toBe(true);
    expect(rcptsAt('127.96.0.3')).toBe(3 + 1); // its own random-mailbox check
  });

  it('uses an answer that came before its share', async () => {
    expect((await answer({ domain: 'EARLY.peer.test', catch_all: false })).status).toBe(204);
    const results: VerificationResult[] = [];
    await verify({ emails: emailsOf('early.peer.test'), depth: 'smtp', mode: 'bulk', catch_all_pending: ['early.peer.test'] }, (r) => results.push(r));
    expect(results.filter((r) => r.verdict === 'deliverable')).toHaveLength(2);
    expect(rcptsAt('127.96.0.4')).toBe(3);
  });

  it('never trusts an accept-all backup MX on a peer\'s "not catch-all": it asks the random mailbox there itself', { timeout: 10_000 }, async () => {
    const late: VerificationResult[] = [];
    const done = verify({ emails: ['a@late.backup.test', 'b@late.backup.test'], depth: 'smtp', mode: 'bulk', catch_all_pending: ['late.backup.test'] }, (r) => late.push(r));
    await new Promise((r) => setTimeout(r, 100));
    await answer({ domain: 'late.backup.test', catch_all: false });
    await done;
    const hinted: VerificationResult[] = [];
    await verify({ emails: ['a@hinted.backup.test', 'b@hinted.backup.test'], depth: 'smtp', mode: 'bulk', catch_all: { 'hinted.backup.test': false } }, (r) => hinted.push(r));
    for (const r of [...late, ...hinted]) {
      expect(`${r.verdict}/${r.reason}`, r.email).toBe('risky/catch_all');
      expect(r.catch_all).toBe(true);
      expect(r.evidence.mx_ip).toMatch(/^127\.96\.2\./); // answered by the backup
    }
    // Two mailboxes and the random one, at each backup.
    expect(rcptsAt('127.96.2.1')).toBe(3);
    expect(rcptsAt('127.96.2.2')).toBe(3);
  });

  it('refuses a bad answer with a 400 and a wrong token with a 401, and keeps waiting for a good one', async () => {
    expect(await answer('not json')).toEqual({ status: 400, text: JSON.stringify({ error: 'body is not valid JSON' }) });
    expect((await answer({ domain: '', catch_all: true })).status).toBe(400);
    expect((await answer({ domain: 'x.test', catch_all: 'yes' })).text).toContain('catch_all');
    expect((await answer({ domain: 'x'.repeat(254), catch_all: true })).status).toBe(400);
    expect((await answer({ domain: 'strict.peer.test', catch_all: true }, 'wrong')).status).toBe(401);
    expect((await fetch(`${daemon.url}/v1/catch-all`)).status).toBe(405);
    // A pending list that is not a list of domains is refused too.
    const res = await fetch(`${daemon.url}/v1/verify`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ emails: ['a@b.test'], catch_all_pending: 'b.test' }) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('catch_all_pending');
  });
});
