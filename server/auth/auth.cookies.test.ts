// Over https every auth cookie is a __Host- cookie (Secure, Path=/, no Domain): a browser refuses
// such a cookie from any other host, so a page on a sibling subdomain cannot plant its own session
// (or a pending two-factor sign-in) in a visitor's browser for the app to pick up. With __Secure-
// alone, a sibling could set `Domain=.example.com` copies that the browser sends first.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../db/client';
import type { Mailer } from '../mail/mailer';
import { createAuth } from './auth';

const mailer: Mailer = { transport: 'outbox', send: async () => undefined };

async function cookiesOf(baseURL: string, production: boolean) {
  const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:9/none' }); // never connected
  try {
    const auth = createAuth({ pool, db: createDb(pool), mailer, baseURL, secret: 's'.repeat(32), production, rateLimit: false, answerFloorMs: 0 });
    const ctx = await auth.$context;
    return ['session_token', 'session_data', 'dont_remember', 'two_factor', 'trust_device'].map((n) => ctx.createAuthCookie(n));
  } finally {
    await pool.end();
  }
}

describe('auth cookies', () => {
  it('over https are __Host- cookies: Secure, Path=/, no Domain', async () => {
    for (const c of await cookiesOf('https://mailvet.example.com', true)) {
      expect(c.name, c.name).toMatch(/^__Host-/);
      expect(c.attributes, c.name).toMatchObject({ secure: true, path: '/', httpOnly: true, sameSite: 'lax' });
      expect(c.attributes.domain, c.name).toBeUndefined();
    }
  });

  it('over plain http (npm start, tests) keep plain names, as browsers refuse Secure cookies there', async () => {
    for (const c of await cookiesOf('http://127.0.0.1:3000', false)) {
      expect(c.name).toMatch(/^better-auth\./);
      expect(c.attributes.secure).toBe(false);
    }
  });
});
