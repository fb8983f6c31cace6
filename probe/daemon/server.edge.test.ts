// The daemon against requests a client or an attacker can send: a request target that is no URL
// (no token needed to send it: the process must survive), a body over the limit (a 413 the client
// can read, not a reset), a body the contract allows however its characters encode, a client that
// hangs up mid-body (not a 500), and a body that does not say it is JSON (415).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeServer } from './server';
import { createVerifier, type Verifier } from '../index';

const ROOT = path.resolve(import.meta.dirname, '../..');

function raw(port: number, text: string, waitMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    s.on('data', (d) => (out += d));
    s.on('error', (e) => (out += `<socket error ${(e as NodeJS.ErrnoException).code}>`));
    s.on('close', () => resolve(out));
    setTimeout(() => {
      s.destroy();
      resolve(out);
    }, waitMs);
  });
}

describe('daemon process: request target that WHATWG URL cannot parse', () => {
  let child: ChildProcess;
  let stderr = '';
  const port = 18000 + Math.floor(Math.random() * 2000);
  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'probe/cli.ts'), 'probe'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PROBE_TOKEN: 'sekret', PROBE_PORT: String(port), PROBE_HOST: '127.0.0.1', PROBE_DNS_SERVERS: '127.0.0.1:1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (d) => (stderr += d));
    for (let i = 0; i < 100 && !stderr.includes('listening'); i++) await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });

  it('answers GET //[ with a 4xx and keeps running (no token needed to send it)', async () => {
    const before = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status);
    expect(before).toBe(200);
    const reply = await raw(port, 'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(child.exitCode).toBeNull(); // the daemon is still alive
    expect(reply).toMatch(/^HTTP\/1\.1 4\d\d/);
  });
});

describe('createProbeServer: bad input gets a 4xx JSON answer', () => {
  let verifier: Verifier;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    verifier = createVerifier({ dnsServers: ['127.0.0.1:1'] });
    server = createProbeServer({ token: 't', verifier });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await verifier.close();
    server.closeAllConnections();
    server.close();
  });

  it('a body over 64 MB gets the 413 JSON error (not a reset connection)', async () => {
    const body = Buffer.alloc(65 * 1024 * 1024, 0x61);
    const outcome = await new Promise<string>((resolve) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/v1/verify', headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': body.length } });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      });
      req.on('error', (e) => resolve(`client error: ${(e as NodeJS.ErrnoException).code} ${e.message}`));
      req.end(body);
    });
    expect(outcome).toMatch(/^413 \{"error":"request body larger than/);
  });

  it('a body the schema accepts (6,000 addresses of 1,011 characters, under the 1,024 limit) is not refused for its size', async () => {
    const emails = Array.from({ length: 6000 }, (_, i) => `${'\u4e00'.repeat(1000)}${String(i).padStart(4, '0')}@x.test`);
    const body = JSON.stringify({ emails, depth: 'syntax' });
    const outcome = await new Promise<string>((resolve) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/v1/verify', headers: { authorization: 'Bearer t', 'content-type': 'application/json' } });
      req.on('response', (res) => {
        let lines = 0;
        res.on('data', (d: Buffer) => (lines += d.toString().split('\n').length - 1));
        res.on('end', () => resolve(`${res.statusCode} lines=${lines}`));
      });
      req.on('error', (e) => resolve(`client error: ${(e as NodeJS.ErrnoException).code}`));
      req.end(body);
    });
    expect(outcome).toBe('200 lines=6000');
  });

  it('a client that hangs up while sending its body is not counted as a 500', async () => {
    await new Promise<void>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.write('POST /v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"emails":[');
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 100);
      });
    });
    await new Promise((r) => setTimeout(r, 200));
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer t' } }).then((r) => r.text());
    const line = metrics.split('\n').find((l) => l.startsWith('mailvet_probe_requests_total{status="500"}'));
    expect(line).toBeUndefined();
  });

  it('a body sent as text/plain is refused with a 4xx (415), not verified', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/verify`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'text/plain' },
      body: JSON.stringify({ emails: ['a@example.com'], depth: 'syntax' }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: 'content-type must be application/json' });
  });

  it('a result stream tells a proxy in front of the node not to buffer or transform it (nginx holds an unmarked stream back: results late, keep-alives lost, the node cut as hung)', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/verify`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ emails: ['a@example.com'], depth: 'syntax' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('cache-control')).toMatch(/\bno-transform\b/);
    await res.text();
  });
});
