// PROBE_URLS entries as a self-hoster writes them: spaces, trailing slashes, letter case, the default
// port, the same daemon twice, a path to a proxy — and the daemon's endpoint pasted in place of its
// base URL, which would only ever fail /healthz ("no probe daemon could verify"): refused by name.
import { describe, expect, it } from 'vitest';
import { ProbeClient, probeUrl } from './probe-client';

describe('probeUrl', () => {
  it('writes one daemon one way', () => {
    expect(probeUrl('HTTP://Probe-1:8025/')).toBe('http://probe-1:8025');
    expect(probeUrl('http://probe-1:80//')).toBe('http://probe-1');
    expect(probeUrl('https://proxy.example/probe/')).toBe('https://proxy.example/probe');
    expect(new ProbeClient({ urls: [' http://a:8025 ', 'http://a:8025/', 'HTTP://A:8025', '', 'http://b:8025'], token: 't' }).urls).toEqual(['http://a:8025', 'http://b:8025']);
  });

  it.each(['http://probe-1:8025/v1/verify', 'http://probe-1:8025/healthz', 'http://probe-1:8025/v1/catch-all/', 'http://probe-1:8025/metrics', 'https://proxy.example/probe/v1/verify'])(
    'refuses %s, a daemon endpoint, naming the base URL to give instead',
    (raw) => {
      expect(() => probeUrl(raw)).toThrow(/names the probe daemon's endpoint .*: give its base URL \(http/);
    },
  );
});
