// The whole verification path on loopback for one test file: a mail world (real DNS + SMTP), a
// probe daemon pointed at it, and the real server (web, or web and worker) using that daemon.
// `probeStack()` registers the file's beforeAll/afterAll (fileFixture); what was started is stopped
// again, also when a later part fails to start.
import { startProbeDaemon } from '../../probe/daemon/server';
import { startMailWorld, type MailWorld, type MailWorldOptions } from '../mailworld/index';
import { fastProbeOptions, freePort } from '../probe/mailworld-helpers';
import { fileFixture } from './file-fixture';
import { startTestServer, type TestServer } from './test-server';

export interface ProbeStack {
  world: MailWorld;
  daemon: { url: string; close(): Promise<void> };
  ts: TestServer;
  stop(): Promise<void>;
}

export interface ProbeStackOptions {
  token: string;
  domains: MailWorldOptions['domains'];
  role?: 'web' | 'all';
  env?: Record<string, string>;
  /** beforeAll's own time limit (vitest's hookTimeout when absent). */
  timeoutMs?: number;
}

export async function startProbeStack(o: Omit<ProbeStackOptions, 'timeoutMs'>): Promise<ProbeStack> {
  const started: Array<() => Promise<void>> = [];
  const stop = async () => {
    while (started.length > 0) await started.pop()!();
  };
  try {
    const world = await startMailWorld({ domains: o.domains });
    started.push(() => world.stop());
    const daemon = await startProbeDaemon({ port: await freePort(), host: '127.0.0.1', token: o.token, probe: fastProbeOptions(world) });
    started.push(() => daemon.close());
    const ts = await startTestServer({ role: o.role, probeUrls: [daemon.url], probeToken: o.token, env: o.env });
    started.push(() => ts.stop());
    return { world, daemon, ts, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** startProbeStack for the whole test file. */
export function probeStack(o: ProbeStackOptions): ProbeStack {
  return fileFixture(() => startProbeStack(o), (s) => s.stop(), o.timeoutMs);
}
