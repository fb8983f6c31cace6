// Over https (as production always is) a sign-in sets __Host- cookies and reads them back: a browser
// takes a __Host- cookie only from this very host (Secure, Path=/, no Domain), so a sibling
// subdomain cannot plant a session of its choosing in a visitor's browser (session fixation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../server/auth/auth';
import type { Mailer, MailMessage } from '../../server/mail/mailer';
import { createTestDb, type TestDb } from '../helpers/test-db';

const BASE = 'https://mailvet.example.com';
let testDb: TestDb;
const sent: MailMessage[] = [];
const mailer: Mailer = { transport: 'outbox', send: async (m) => void sent.push(m) };

beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb?.close();
});

describe('auth cookies over https', () => {
  it('are __Host- cookies (Secure, Path=/, no Domain) that the next request is recognised by', async () => {
    const auth = createAuth({ pool: testDb.pool, db: testDb.db, mailer, baseURL: BASE, secret: 's'.repeat(32), production: true, rateLimit: false, answerFloorMs: 0 });
    const post = (path: string, body: unknown) =>
      auth.handler(new Request(`${BASE}/api/auth${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: BASE }, body: JSON.stringify(body) }));
    expect((await post('/sign-up/email', { name: 'Host', email: 'host-cookie@example.com', password: 'secret123' })).status).toBe(200);
    await expect.poll(() => sent.length).toBeGreaterThan(0);
    const link = /https:\/\/\S+verify-email\S+/.exec(sent.map((m) => m.text).join('\n'))![0];
    expect((await auth.handler(new Request(link))).status).toBeLessThan(400);

    const signIn = await post('/sign-in/email', { email: 'host-cookie@example.com', password: 'secret123' });
    expect(signIn.status).toBe(200);
    const cookies = signIn.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) {
      expect(c).toMatch(/^__Host-better-auth\./);
      expect(c).toMatch(/; Path=\/(;|$)/);
      expect(c).toMatch(/; Secure(;|$)/);
      expect(c).not.toMatch(/; Domain=/i);
    }
    const session = await auth.handler(new Request(`${BASE}/api/auth/get-session`, { headers: { cookie: cookies.map((c) => c.split(';')[0]).join('; ') } }));
    expect(((await session.json()) as { user?: { email: string } } | null)?.user?.email).toBe('host-cookie@example.com');
  });
});
