// Rotating the fleet's token without an outage: the nodes are given the new PROBE_TOKEN with the old
// one as PROBE_TOKEN_PREVIOUS, then the app processes move to the new token one by one, then the old
// one is dropped. Meanwhile a client with either token is served; any other token is still refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeClient } from '../client/probe-client';
import { daemonSettingsFromEnv } from '../env';
import { startProbeDaemon, type ProbeDaemon } from './server';

let daemon: ProbeDaemon;
beforeAll(async () => {
  const settings = daemonSettingsFromEnv({ PROBE_TOKEN: 'new-token', PROBE_TOKEN_PREVIOUS: 'old-token', PROBE_PORT: '0', PROBE_HOST: '127.0.0.1' });
  daemon = await startProbeDaemon({ ...settings, probe: { dnsServers: ['127.0.0.1:1'] } });
});
afterAll(() => daemon?.close());

const verifyWith = async (token: string): Promise<string[]> => {
  const out: string[] = [];
  for await (const r of new ProbeClient({ urls: [daemon.url], token, retry: { backoffMs: 10 } }).verify(['a@example.com', 'not an address'], { depth: 'syntax' })) out.push(r.email);
  return out.sort();
};

describe('probe daemon during a token rotation (PROBE_TOKEN_PREVIOUS)', () => {
  it('serves clients still on the previous token and those on the new one', async () => {
    expect(await verifyWith('old-token')).toEqual(['a@example.com', 'not an address']);
    expect(await verifyWith('new-token')).toEqual(['a@example.com', 'not an address']);
    const health = (await (await fetch(`${daemon.url}/healthz`, { headers: { authorization: 'Bearer old-token' } })).json()) as { node?: string; token_accepted?: boolean };
    expect(health.token_accepted).toBeUndefined();
    expect(typeof health.node).toBe('string');
  });

  it('still refuses any other token (401)', async () => {
    await expect(verifyWith('wrong-token')).rejects.toThrow(/401/);
    const metrics = await fetch(`${daemon.url}/metrics`, { headers: { authorization: 'Bearer wrong-token' } });
    expect(metrics.status).toBe(401);
  });

  it('is not set unless asked: without PROBE_TOKEN_PREVIOUS only PROBE_TOKEN is taken', () => {
    expect(daemonSettingsFromEnv({ PROBE_TOKEN: 'new-token' })).not.toHaveProperty('previousToken');
    expect(() => daemonSettingsFromEnv({ PROBE_TOKEN_PREVIOUS: 'old-token' })).toThrow(/PROBE_TOKEN/);
  });
});
