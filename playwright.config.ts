import { defineConfig } from '@playwright/test';
import fs from 'node:fs';

// The browser comes from npm (@sparticuz/chromium ships a real Chromium inside the package),
// or Debian's /usr/bin/chromium where it is installed. Never a download at test time.
async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const sparticuz = (await import('@sparticuz/chromium')).default;
  return sparticuz.executablePath();
}

const PORT = Number(process.env.E2E_PORT ?? 3111);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two browsers at once against the one e2e server: every spec signs up accounts of its own, and the
  // tests of a file run in order in one worker. On this 2-core machine the suite takes ~6.8 min so
  // against ~8 min with one worker (125 tests, 2026-11-24).
  fullyParallel: false,
  workers: 2,
  // One retry in CI so a browser hiccup on a loaded machine does not block a landing; a test that
  // fails twice still fails the run (and the list reporter shows every retry).
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
    launchOptions: {
      executablePath: await chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `tsx tests/e2e/serve.ts`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    env: { E2E_PORT: String(PORT) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
