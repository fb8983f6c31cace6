import { expect, test, type Locator, type Page, type Route } from '@playwright/test';
import { upgradeTo, type PaidPlan } from '../fixtures/e2e/paid-plan';

export const SCREENSHOT_DIR = 'tests/e2e/__screenshots__';

let counter = 0;
/** A unique address per test run (the e2e database lives for the whole run). */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}${counter}@example.com`;
}

/** Fills the Sign Up tab of the open /auth page and sends it; the caller checks the answer. */
export async function submitSignUp(page: Page, o: { name?: string; email: string; password?: string }): Promise<void> {
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(o.name ?? 'Test User');
  await page.getByLabel('Email').fill(o.email);
  await page.getByLabel('Password').fill(o.password ?? 'secret123');
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/** Fills the Sign In form of the open /auth page and sends it; the caller checks the answer. */
export async function submitSignIn(page: Page, email: string, password = 'secret123'): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Follows the link (the one named `link`, else its only one) of the newest /dev/outbox mail to `to` mentioning `subject`. */
export async function followMailLink(page: Page, to: string, subject: string, link?: RegExp): Promise<void> {
  await page.goto('/dev/outbox');
  const mail = page.locator('article', { hasText: to }).filter({ hasText: subject }).first();
  await mail.getByRole('link', link ? { name: link } : {}).click();
}

/**
 * A new account for a test about something else: the Sign Up form's own call (POST /api/auth/sign-up/email,
 * landing on /dashboard) made from the page's session, then the verification link of its mail in /dev/outbox
 * followed in the browser; ends on /dashboard, signed in. The form itself, its "Check Your Email!" and the
 * link in the outbox page are walked through in auth.spec.ts (submitSignUp, followMailLink); skipping the
 * form's page load and the outbox's here saves ~0.6 s on each of the suite's sign-ups.
 */
export async function signUpAndVerify(page: Page, o: { name?: string; email: string; password?: string }): Promise<void> {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const res = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin },
    data: { name: o.name ?? 'Test User', email: o.email, password: o.password ?? 'secret123', callbackURL: '/dashboard' },
  });
  expect(res.status(), `sign-up of ${o.email}: ${await res.text()}`).toBe(200);
  const mails = (await (await page.request.get('/api/dev/outbox')).json()) as Array<{ to: string; subject: string; text: string }>;
  const mail = mails.find((m) => m.to.includes(o.email) && m.subject.includes('Verify your email'));
  const link = mail && /https?:\/\/[^\s<]*verify-email[^\s<]*/.exec(mail.text)?.[0];
  expect(link, `the verification mail to ${o.email}`).toBeTruthy();
  await page.goto(link!);
  await page.waitForURL('**/dashboard');
}

/** A new verified user (address tagged `tag`), put on `plan` when given, on the dashboard page `path`. Returns the address. */
export async function newUserOn(page: Page, path: string, o: { tag: string; plan?: PaidPlan; password?: string; name?: string }): Promise<string> {
  const email = uniqueEmail(o.tag);
  await signUpAndVerify(page, { email, password: o.password, name: o.name });
  if (o.plan) await upgradeTo(page, o.plan);
  await page.goto(path);
  return email;
}

export async function signIn(page: Page, email: string, password = 'secret123'): Promise<void> {
  await page.goto('/auth');
  await submitSignIn(page, email, password);
  await page.waitForURL('**/dashboard');
}

/** Signs out with the dashboard header's button and waits for the home page. */
/** On the Team page: Invite Member, the address (and role), Send Invitation; waits for 'Invitation Sent'. */
export async function inviteFromTeam(page: Page, email: string, role?: 'admin' | 'member'): Promise<void> {
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Team Member' });
  await invite.getByLabel('Email').fill(email);
  if (role) await invite.getByLabel('Role').selectOption(role);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('Invitation Sent')).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((u) => u.pathname === '/');
}

/** After a sign-out: on the home page, and the dashboard page `path` now sends the browser to /auth. */
export async function expectSignedOut(page: Page, path: string): Promise<void> {
  await page.waitForURL((u) => u.pathname === '/');
  await page.goto(path);
  await page.waitForURL('**/auth');
}

/** Clicks the button named `button` and waits for `message` (a toast, an inline answer) to show. */
export async function pressAndSee(page: Page, button: string, message: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByText(message)).toBeVisible();
}

/** Clicks the button named `button` and returns the dialog it opens (named `dialog`, else like the button). */
export async function openDialog(page: Page, button: string, dialog = button): Promise<Locator> {
  await page.getByRole('button', { name: button }).click();
  return page.getByRole('dialog', { name: dialog });
}

/**
 * Makes the tRPC queries `procedures` (e.g. 'account.me') fail with a 500 for this page, as a server
 * error would, also when the client batches them into one request; the other calls batched with
 * them still get their real answers.
 */
export async function failProcedure(page: Page, ...procedures: string[]): Promise<void> {
  const fail = async (route: Route) => {
    const names = new URL(route.request().url()).pathname.split('/').pop()!.split(',');
    const failed = { error: { message: 'Internal server error', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } };
    const others = names.some((n) => !procedures.includes(n)) ? ((await (await route.fetch()).json()) as unknown[]) : names.map(() => failed);
    const body = names.map((n, i) => (procedures.includes(n) ? failed : others[i]));
    await route.fulfill({ status: names.length > 1 ? 207 : 500, contentType: 'application/json', body: JSON.stringify(body) });
  };
  for (const procedure of procedures) await page.route(`**/api/trpc/*${procedure}*`, fail);
}

/**
 * Passes once `check` (an assertion with a short timeout of its own) does, jumping the page's clock
 * `stepMs` ahead between tries and by at most `withinMs` in all (page.clock.install() before the page
 * loaded): what the app does on a timer (a poll, a retry's back-off, a grace period) happens without
 * the test sitting through it, and the test still fails when it would not have happened by then.
 */
export async function passesOnPageClock(page: Page, o: { stepMs: number; withinMs: number }, check: () => Promise<void>): Promise<void> {
  for (let jumped = 0; ; jumped += o.stepMs) {
    try {
      await check();
      return;
    } catch (e) {
      if (jumped >= o.withinMs) throw e;
    }
    await page.clock.fastForward(o.stepMs);
  }
}

/**
 * A user's own text (a name) inside `container` is drawn in its own bidirectional run (<bdi>,
 * dir="auto", or a box of its own): a name saved with a text-direction character cannot flip the
 * words around it.
 */
export async function expectIsolated(container: Locator, text: string): Promise<void> {
  const isolated = await container.evaluate((root, t) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.includes(t)) continue;
      // Up through the inline boxes around it: one isolating them, or a box of its own (a block,
      // flex item or inline-block holding just the name) ends its bidirectional run.
      for (let e = n.parentElement; e; e = e.parentElement) {
        const style = getComputedStyle(e);
        if (style.display !== 'inline' && style.display !== 'contents') return (e.textContent ?? '').trim() === t;
        if (/isolate|plaintext/.test(style.unicodeBidi)) return true;
      }
      return false;
    }
    return null;
  }, text);
  expect(isolated, `"${text}" isolated from the text around it`).toBe(true);
}
