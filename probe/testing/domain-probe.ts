// Test helpers for probeDomain: an SMTP context toward a local test server, a run that collects
// what settled, and a raw line-based SMTP server for behaviour the scripted one cannot show
// (connections dropped at once, replies held back, a QUIT never answered).
import net from 'node:net';
import { Politeness } from '../smtp/politeness';
import type { DomainProbeParams, MailboxOutcome, SmtpContext } from '../smtp/domain-probe/types';
import { probeDomain } from '../smtp/probe-domain';
import { lineSplitter } from './loopback-server';

/** A context toward a test server on 127.0.0.1:`port`, with `limits` as the politeness caps. */
export function smtpContext(port: number, over: Partial<SmtpContext> = {}, limits = { perIp: 5, rcpts: 20 }): SmtpContext {
  return {
    politeness: new Politeness({ maxConnectionsPerIp: limits.perIp, maxRcptsPerSession: limits.rcpts, globalConcurrency: 100 }),
    port,
    heloName: 'probe.test',
    mailFrom: 'verify@probe.test',
    connectTimeoutMs: 1500,
    bannerTimeoutMs: 1500,
    replyTimeoutMs: 1500,
    maxConnectionsPerIp: limits.perIp,
    noTlsIps: new Set(),
    ...over,
  };
}

/** probeDomain, with what each address settled on collected. */
export async function runProbe(p: Omit<DomainProbeParams, 'onSettled'>) {
  const settled = new Map<string, { outcome: MailboxOutcome; catchAll: boolean | null }>();
  const res = await probeDomain({ ...p, onSettled: (a, outcome, catchAll) => settled.set(a, { outcome, catchAll }) });
  return { ...res, settled };
}

export interface RawSmtp {
  port: number;
  /** Connections accepted so far, and those open now. */
  connections: number;
  open: number;
  close(): Promise<void>;
}

/**
 * A raw SMTP server on 127.0.0.1: connection `n` (from 1) is dropped at once when `drop(n)`; otherwise
 * it greets and answers each command line with `reply(line)` (null: no answer), `delayMs(line)` later;
 * after QUIT's answer it closes.
 */
export async function startRawSmtp(o: { reply: (line: string) => string | null; drop?: (n: number) => boolean; delayMs?: (line: string) => number }): Promise<RawSmtp> {
  const sockets = new Set<net.Socket>();
  const state: RawSmtp = { port: 0, connections: 0, open: 0, close: async () => undefined };
  const srv = net.createServer((socket) => {
    const n = ++state.connections;
    sockets.add(socket);
    state.open++;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      state.open--;
    });
    if (o.drop?.(n)) return void socket.destroy();
    socket.write('220 fake.test ESMTP\r\n');
    const lines = lineSplitter();
    socket.on('data', (d) => {
      for (const line of lines(d)) {
        const reply = o.reply(line);
        if (reply === null) continue;
        const delay = o.delayMs?.(line) ?? 0;
        setTimeout(() => {
          if (socket.writable) socket.write(`${reply}\r\n`);
          if (line.startsWith('QUIT')) socket.end();
        }, delay);
      }
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  state.port = (srv.address() as net.AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      srv.close(() => resolve());
    });
  return state;
}
