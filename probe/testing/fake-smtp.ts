// Test helpers for SMTP: a real smtp-server (STARTTLS with its built-in self-signed certificate,
// PIPELINING, maxRecipients → 452 4.5.3) and a scripted raw server for odd behaviour.
import net from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { lineSplitter } from './loopback-server';

export interface ServerCounters {
  connections: number;
  current: number;
  maxConcurrent: number;
  rcptsPerSession: number[];
}

export interface RunningServer {
  port: number;
  counters: ServerCounters;
  close(): Promise<void>;
}

/** An smtp-server on 127.0.0.1: `rcpt(address)` returns null to accept or [code, text] to refuse. */
export async function startSmtpServer(o: { rcpt?: (address: string) => [number, string] | null } & Partial<SMTPServerOptions> = {}): Promise<RunningServer> {
  const counters: ServerCounters = { connections: 0, current: 0, maxConcurrent: 0, rcptsPerSession: [] };
  const { rcpt, ...options } = o;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['AUTH'],
    ...options,
    onConnect(_session, cb) {
      counters.connections++;
      counters.current++;
      counters.maxConcurrent = Math.max(counters.maxConcurrent, counters.current);
      counters.rcptsPerSession.push(0);
      cb();
    },
    onClose() {
      counters.current--;
    },
    onRcptTo(address, _session, cb) {
      counters.rcptsPerSession[counters.rcptsPerSession.length - 1]! += 1;
      const answer = rcpt?.(address.address) ?? null;
      if (!answer) return cb();
      const err = Object.assign(new Error(answer[1]), { responseCode: answer[0] });
      cb(err);
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as net.AddressInfo).port;
  return { port, counters, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A raw scripted server: `banner` (null = never greet) after `bannerDelayMs`, then each command
 * line is answered by `reply(line, state)` (a string, possibly multi-line, or null = stay silent).
 */
export async function startScriptedSmtp(o: {
  banner?: string | null;
  bannerDelayMs?: number;
  reply: (line: string, state: { commands: string[]; writes: number }) => string | null;
  /** The loopback address to listen on (default 127.0.0.1; '::1' for a server reached over IPv6). */
  host?: string;
}): Promise<RunningServer & { commandsSeen: string[][]; packets: string[][] }> {
  const counters: ServerCounters = { connections: 0, current: 0, maxConcurrent: 0, rcptsPerSession: [] };
  const commandsSeen: string[][] = [];
  const packets: string[][] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    counters.connections++;
    counters.current++;
    counters.maxConcurrent = Math.max(counters.maxConcurrent, counters.current);
    const state = { commands: [] as string[], writes: 0 };
    commandsSeen.push(state.commands);
    const myPackets: string[] = [];
    packets.push(myPackets);
    const lines = lineSplitter('utf8');
    socket.on('error', () => undefined);
    socket.on('close', () => {
      counters.current--;
      sockets.delete(socket);
    });
    const banner = o.banner === undefined ? '220 fake.test ESMTP' : o.banner;
    if (banner !== null) setTimeout(() => socket.writable && socket.write(`${banner}\r\n`), o.bannerDelayMs ?? 0);
    socket.on('data', (chunk) => {
      myPackets.push(chunk.toString('utf8'));
      for (const line of lines(chunk)) {
        state.commands.push(line);
        const answer = o.reply(line, state);
        if (answer !== null && socket.writable) {
          state.writes++;
          socket.write(`${answer}\r\n`);
        }
        if (/^QUIT/i.test(line)) socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, o.host ?? '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    counters,
    commandsSeen,
    packets,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A port with nothing listening on 127.0.0.1. */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
