// A TCP server on loopback for one test: `onSocket` speaks on each connection; close() ends the
// connections still open, then the server.
import net from 'node:net';

export interface LoopbackServer {
  port: number;
  close(): Promise<void>;
}

export async function startLoopbackServer(onSocket: (socket: net.Socket) => void, host = '127.0.0.1'): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => srv.listen(0, host, () => resolve()));
  return {
    port: (srv.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        srv.close(() => resolve());
      }),
  };
}

/**
 * The complete CRLF lines each chunk of a test server's socket brings (a line split over chunks is
 * kept until its end arrives): `socket.on('data', (d) => { for (const line of lines(d)) … })`.
 */
export function lineSplitter(encoding: BufferEncoding = 'utf8'): (chunk: Buffer) => string[] {
  let buf = '';
  return (chunk) => {
    buf += chunk.toString(encoding);
    const parts = buf.split('\r\n');
    buf = parts.pop() ?? '';
    return parts;
  };
}
