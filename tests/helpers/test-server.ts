import { freePort } from '../../db/embedded';
import { readEnv } from '../../server/env';
import { startServer, type RunningServer } from '../../server/main';
import type { HttpTimeouts } from '../../server/http/slow-client';
import { fileFixture } from './file-fixture';
import { createTestDb, type TestDb } from './test-db';

export interface TestServer {
  url: string;
  server: RunningServer;
  testDb: TestDb;
  stop(): Promise<void>;
}

/** The real web server (and optionally the worker) on a free port with a database of its own. */
export async function startTestServer(
  o: { role?: 'web' | 'all'; probeUrls?: string[]; probeToken?: string; env?: Record<string, string>; spaDir?: string; httpTimeouts?: Partial<HttpTimeouts> } = {},
): Promise<TestServer> {
  const testDb = await createTestDb();
  // freePort's port can be taken by another test file before the server listens: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), testDb, o);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) {
        await testDb.close();
        throw err;
      }
    }
  }
}

async function startOn(port: number, testDb: TestDb, o: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  // GEO_URL: a closed loopback port unless a test brings its geolocation fake (never the internet).
  const env = readEnv({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: '.data/test', GEO_URL: 'http://127.0.0.1:9/{ip}/json', ...o.env });
  const baseURL = `http://127.0.0.1:${port}`;
  const server = await startServer({
    env,
    role: o.role ?? 'web',
    databaseUrl: testDb.url,
    probe: { urls: o.probeUrls ?? [], token: o.probeToken ?? 'test-token' },
    baseURL,
    ...(o.spaDir ? { spaDir: o.spaDir } : {}),
    ...(o.httpTimeouts ? { httpTimeouts: o.httpTimeouts } : {}),
  });
  return {
    url: baseURL,
    server,
    testDb,
    async stop() {
      await server.stop();
      await testDb.close();
    },
  };
}

/** startTestServer for the whole test file or describe block (its beforeAll/afterAll): `const ts = testServer()`. */
export function testServer(o: Parameters<typeof startTestServer>[0] = {}): TestServer {
  return fileFixture(() => startTestServer(o), (s) => s.stop());
}

/** A tiny cookie-keeping HTTP client for the auth API, as a browser would use it. */
export class Browserless {
  cookies = new Map<string, string>();
  constructor(readonly baseURL: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(path: string, init: { method?: string; json?: unknown; redirect?: 'follow' | 'manual' | 'error' } = {}): Promise<Response> {
    const headers: Record<string, string> = { origin: this.baseURL, cookie: this.cookieHeader() };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, this.baseURL), {
      method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      redirect: init.redirect ?? 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Calls a tRPC query over HTTP GET, returns the parsed body. */
  async trpcQuery(proc: string, input?: unknown): Promise<{ status: number; body: any }> {
    const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const res = await this.request(`/api/trpc/${proc}${qs}`);
    return { status: res.status, body: await res.json() };
  }

  async trpcMutation(proc: string, input?: unknown): Promise<{ status: number; body: any }> {
    const res = await this.request(`/api/trpc/${proc}`, { method: 'POST', json: input ?? {} });
    return { status: res.status, body: await res.json() };
  }
}

/** Signs a user up, follows the verification link from the dev outbox, returns a signed-in client. */
export async function signUpVerified(ts: TestServer, o: { name?: string; email: string; password?: string }): Promise<Browserless> {
  const client = new Browserless(ts.url);
  const res = await client.request('/api/auth/sign-up/email', { json: { name: o.name ?? 'Test User', email: o.email, password: o.password ?? 'secret123', callbackURL: '/dashboard' } });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const link = await verificationLink(ts, o.email);
  const verify = await client.request(link);
  if (verify.status >= 400) throw new Error(`verification failed: ${verify.status}`);
  return client;
}

export async function verificationLink(ts: TestServer, email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const mail = await ts.testDb.db
      .selectFrom('dev_outbox')
      .select('text')
      .where('to', '=', email)
      .where('subject', 'like', 'Verify%')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const url = mail?.text.match(/https?:\/\/\S+verify-email\S+/)?.[0];
    if (url) return url;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no verification mail for ${email}`);
}
