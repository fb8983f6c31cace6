// A tiny line-based SMTP server bound to a chosen 127.x address and port (several hosts share one
// port, as MX addresses do on port 25), its RCPT answers and delays given per recipient, and the
// EHLO extensions it offers.
import net from 'node:net';
import { lineSplitter } from './loopback-server';

export interface MiniHost {
  ip: string;
  port: number;
  rcpts: string[];
  close(): Promise<void>;
}

export async function startMiniHost(
  ip: string,
  port: number,
  rcpt: (addr: string) => string,
  rcptDelayMs: (addr: string) => number = () => 0,
  extensions: string[] = ['PIPELINING', 'ENHANCEDSTATUSCODES'],
): Promise<MiniHost> {
  const rcpts: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.write(`220 ${ip} ESMTP\r\n`);
    const lines = lineSplitter('utf8');
    let chain: Promise<void> = Promise.resolve(); // replies go out in order, each after its own delay
    const send = (answer: string, delayMs: number, end: boolean): void => {
      chain = chain.then(() => new Promise<void>((r) => setTimeout(r, delayMs))).then(() => {
        if (socket.writable) socket.write(`${answer}\r\n`);
        if (end) socket.end();
      });
    };
    socket.on('data', (chunk) => {
      for (const line of lines(chunk)) {
        let answer = '250 ok';
        let delay = 0;
        if (/^EHLO/i.test(line)) answer = ['mini', ...extensions].map((l, i, all) => `250${i === all.length - 1 ? ' ' : '-'}${l}`).join('\r\n');
        else if (/^RCPT/i.test(line)) {
          const addr = /<([^>]*)>/.exec(line)?.[1] ?? '';
          rcpts.push(addr);
          answer = rcpt(addr);
          delay = rcptDelayMs(addr);
        } else if (/^QUIT/i.test(line)) answer = '221 bye';
        send(answer, delay, /^QUIT/i.test(line));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ip, () => resolve());
  });
  return {
    ip,
    port: (server.address() as net.AddressInfo).port,
    rcpts,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
