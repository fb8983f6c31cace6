// A tiny SMTP client for the world's self-tests: one command, one (possibly multi-line) reply.
import net from 'node:net';
import tls from 'node:tls';

export interface Reply {
  code: number;
  lines: string[];
}

export class SmtpTestClient {
  private buf = '';
  private waiters: ((r: Reply | null) => void)[] = [];
  private replies: (Reply | null)[] = [];
  private closed = false;

  private constructor(private socket: net.Socket) {
    this.attach(socket);
  }

  static async connect(host: string, port: number, timeoutMs = 2000): Promise<SmtpTestClient> {
    const socket = net.connect({ host, port });
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('connect timeout')), timeoutMs);
      socket.once('connect', () => {
        clearTimeout(t);
        resolve();
      });
      socket.once('error', (e) => {
        clearTimeout(t);
        reject(e);
      });
    });
    return new SmtpTestClient(socket);
  }

  private attach(socket: net.Socket): void {
    socket.on('data', (chunk: Buffer) => {
      this.buf += chunk.toString('utf8');
      this.parse();
    });
    socket.on('close', () => {
      this.closed = true;
      this.push(null);
    });
    socket.on('error', () => undefined);
  }

  private pending: string[] = [];
  private parse(): void {
    for (;;) {
      const nl = this.buf.indexOf('\r\n');
      if (nl < 0) return;
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 2);
      this.pending.push(line);
      if (line.charAt(3) !== '-') {
        this.push({ code: Number(line.slice(0, 3)), lines: this.pending });
        this.pending = [];
      }
    }
  }

  private push(r: Reply | null): void {
    const w = this.waiters.shift();
    if (w) w(r);
    else this.replies.push(r);
  }

  /** Next reply, or null if the server closed / nothing arrived within timeoutMs. */
  read(timeoutMs = 2000): Promise<Reply | null> {
    const queued = this.replies.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(null);
      }, timeoutMs);
      const done = (r: Reply | null): void => {
        clearTimeout(t);
        resolve(r);
      };
      this.waiters.push(done);
    });
  }

  write(line: string): void {
    this.socket.write(`${line}\r\n`);
  }

  async cmd(line: string, timeoutMs = 2000): Promise<Reply | null> {
    this.write(line);
    return this.read(timeoutMs);
  }

  async startTls(): Promise<void> {
    this.socket.removeAllListeners('data');
    this.socket.removeAllListeners('close');
    const secure = tls.connect({ socket: this.socket, rejectUnauthorized: false });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', () => resolve());
      secure.once('error', reject);
    });
    this.socket = secure;
    this.attach(secure);
  }

  close(): void {
    this.socket.destroy();
  }
}
