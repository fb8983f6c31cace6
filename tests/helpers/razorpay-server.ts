// A test server wired to a fake Razorpay on 127.0.0.1: keys, base URL and webhook secret in the
// server's env, and the fake posting its signed webhooks to the server's webhook route; with
// `geoCountry`, also a fake geolocation service (GEO_URL) placing every caller in that country.
import { startFakeGeo } from './fake-geo';
import { startFakeRazorpay, type FakeRazorpay } from './fake-razorpay';
import { fileFixture } from './file-fixture';
import { startTestServer, type TestServer } from './test-server';

export interface RazorpayServer {
  ts: TestServer;
  rzp: FakeRazorpay;
  stop(): Promise<void>;
}

export interface RazorpayServerOptions {
  /** Start a fake geolocation service answering this country code, as the server's GEO_URL. */
  geoCountry?: string;
}

export async function startServerWithRazorpay(webhookSecret: string, env: Record<string, string> = {}, o: RazorpayServerOptions = {}): Promise<RazorpayServer> {
  const rzp = await startFakeRazorpay();
  const geo = o.geoCountry ? await startFakeGeo(o.geoCountry) : null;
  const ts = await startTestServer({ env: { RAZORPAY_KEY_ID: rzp.keyId, RAZORPAY_KEY_SECRET: rzp.keySecret, RAZORPAY_BASE_URL: rzp.url, RAZORPAY_WEBHOOK_SECRET: webhookSecret, ...(geo ? { GEO_URL: geo.url } : {}), ...env } });
  rzp.webhooks({ url: `${ts.url}/api/billing/razorpay/webhook`, secret: webhookSecret });
  return {
    ts,
    rzp,
    async stop() {
      await ts.stop();
      await rzp.close();
      await geo?.close();
    },
  };
}

/**
 * startServerWithRazorpay for the whole test file or describe block (its beforeAll/afterAll):
 * `const { ts, rzp } = razorpayServer(secret)`; both are filled in before the first test runs.
 */
export function razorpayServer(webhookSecret: string, env: Record<string, string> = {}, o: RazorpayServerOptions = {}): { ts: TestServer; rzp: FakeRazorpay } {
  const ts = {} as TestServer;
  const rzp = {} as FakeRazorpay;
  fileFixture(
    async () => {
      const started = await startServerWithRazorpay(webhookSecret, env, o);
      Object.assign(ts, started.ts);
      Object.assign(rzp, started.rzp);
      return started;
    },
    (started) => started.stop(),
  );
  return { ts, rzp };
}
