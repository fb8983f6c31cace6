// One HTTP/1.1 exchange written byte for byte on a fresh socket, for what an HTTP client would not send
// (a Content-Length that is no number, an empty chunked body, a NUL in a header). Resolves once the
// server has closed the connection, with the status, the head and the body (chunk framing removed).
import net from 'node:net';

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

export function rawExchange(serverUrl: string, bytes: string | Buffer): Promise<RawAnswer> {
  const u = new URL(serverUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const split = data.indexOf('\r\n\r\n');
      const head = data.slice(0, split);
      let body = data.slice(split + 4);
      if (/transfer-encoding: chunked/i.test(head)) body = body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '').replace(/\r\n$/, '');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), head, body });
    });
    socket.write(bytes);
  });
}
