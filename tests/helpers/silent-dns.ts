// A "DNS server" on 127.0.0.1 that reads every question and never answers; it keeps the names it
// was asked. For webhook hosts whose DNS hangs (WEBHOOK_DNS_SERVERS).
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

export async function startSilentDns() {
  const asked: string[] = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg: Buffer) => {
    // The question's name: length-prefixed labels after the 12-byte header.
    const labels: string[] = [];
    for (let i = 12; i < msg.length && msg[i]! > 0 && labels.length < 64; i += msg[i]! + 1) labels.push(msg.subarray(i + 1, i + 1 + msg[i]!).toString('latin1'));
    asked.push(labels.join('.').toLowerCase());
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return { address: `127.0.0.1:${(socket.address() as AddressInfo).port}`, asked, close: () => new Promise<void>((r) => socket.close(() => r())) };
}
