// Warms a freshly started world's code paths (V8 compiles and optimises the SMTP, DNS and RDAP
// servers' hot code on first use, which otherwise lands in the first measured run of a benchmark),
// then forgets it all: counters and greylist reset, every warm-up connection closed. Used by the
// world process (bench:fleet). Bounded in count and time; a warm-up that fails changes nothing.
import { Resolver } from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import type { MailWorld } from './index';

export interface WarmUpOptions {
  /** SMTP sessions (each EHLO, then MAIL, up to 20 RCPTs and QUIT in one write). */
  sessions?: number;
  dnsQueries?: number;
  rdapQueries?: number;
  /** Gives up (and still resets) after this long. */
  timeLimitMs?: number;
}

export interface WarmUpReport {
  sessions: number;
  dnsQueries: number;
  rdapQueries: number;
}

/** One pipelined session; resolves when the server has closed or on any error. Never rejects. */
function session(host: string, port: number, rcpts: string[], signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    let buf = '';
    let stage = 0;
    let replies = 0;
    let ok = false;
    const stop = (): void => void s.destroy();
    signal.addEventListener('abort', stop, { once: true });
    s.setNoDelay(true);
    s.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line[3] === '-') continue;
        if (stage === 0) {
          stage = 1;
          s.write('EHLO warm-up.mailworld.test\r\n');
        } else if (stage === 1) {
          stage = 2;
          s.write(`${['MAIL FROM:<warm-up@mailworld.test>', ...rcpts.map((r) => `RCPT TO:<${r}>`), 'QUIT'].join('\r\n')}\r\n`);
        } else if (++replies === rcpts.length + 2) {
          ok = true;
          s.end();
        }
      }
    });
    s.on('error', () => undefined);
    s.on('close', () => {
      signal.removeEventListener('abort', stop);
      resolve(ok);
    });
  });
}

/** Runs `jobs` with at most `width` at once. */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, jobs.length) }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++] as () => Promise<T>;
        out.push(await job());
      }
    }),
  );
  return out;
}

export async function warmUpWorld(world: MailWorld, o: WarmUpOptions = {}): Promise<WarmUpReport> {
  const signal = AbortSignal.timeout(o.timeLimitMs ?? 8_000);
  const report: WarmUpReport = { sessions: 0, dnsQueries: 0, rdapQueries: 0 };
  // Plain hosts only (no tarpit, silence, limits or TLS demands), with the addresses they serve.
  const plain = (ip: string): boolean => {
    const spec = world.hosts.get(ip)?.spec;
    if (!spec) return false;
    return (
      (spec.mode ?? 'smtp') === 'smtp' &&
      !spec.bannerDelayMs &&
      !spec.slowRepliesMs &&
      spec.maxConnectionsPerIp === undefined &&
      spec.closeAfterRcpts === undefined &&
      !spec.hangUpAtUnknown &&
      !spec.dropRcpts &&
      !spec.prematureRcptAnswers &&
      !spec.requireTls &&
      spec.ehlo !== false
    );
  };
  const targets: { ip: string; rcpts: string[] }[] = [];
  for (const d of world.domains) {
    if ((d.dns ?? 'ok') !== 'ok' || d.addresses.length === 0) continue;
    const ip = [...(d.mx ?? []), ...(d.aRecords ?? [])].map((m) => m.ip).find((x): x is string => !!x && plain(x));
    if (ip) targets.push({ ip, rcpts: d.addresses.slice(0, 20).map((a) => `${a}@${d.domain}`) });
  }
  try {
    const sessions = o.sessions ?? 1500;
    if (targets.length > 0 && sessions > 0) {
      const jobs = Array.from({ length: sessions }, (_, i) => {
        const t = targets[i % targets.length] as { ip: string; rcpts: string[] };
        return () => session(t.ip, world.smtpPort, t.rcpts, signal);
      });
      report.sessions = (await pool(jobs, 50)).filter(Boolean).length;
    }
    const resolver = new Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([world.dnsServer]);
    const names = world.domains.flatMap((d) => [d.domain, ...(d.mx ?? []).map((m) => m.host)]);
    const dnsJobs = Array.from({ length: names.length > 0 ? (o.dnsQueries ?? 2000) : 0 }, (_, i) => {
      const name = names[Math.floor(i / 2) % names.length] as string;
      return (): Promise<unknown> => (signal.aborted ? Promise.resolve(null) : (i % 2 ? resolver.resolve4(name) : resolver.resolveMx(name)).catch(() => null));
    });
    await pool(dnsJobs, 50);
    report.dnsQueries = dnsJobs.length;
    resolver.cancel();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const get = (name: string): Promise<void> =>
      new Promise((resolve) => {
        if (signal.aborted) return resolve();
        const req = http.get(`${world.rdapUrl}/domain/${encodeURIComponent(name)}`, { agent, signal }, (res) => {
          res.resume();
          res.on('end', () => resolve());
          res.on('error', () => resolve());
        });
        req.on('error', () => resolve());
      });
    const rdapJobs = Array.from({ length: o.rdapQueries ?? 400 }, (_, i) => () => get(world.domains[i % Math.max(1, world.domains.length)]?.domain ?? 'warm-up.invalid'));
    await pool(rdapJobs, 4);
    report.rdapQueries = rdapJobs.length;
    agent.destroy();
  } finally {
    // Every warm-up connection is closed by now (each session resolved on 'close'); let the
    // server side see the closes before the counters start from zero.
    for (let i = 0; i < 100 && [...world.counters.perIp.values()].some((h) => h.current > 0); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    world.resetCounters();
    world.resetGreylist();
  }
  return report;
}
