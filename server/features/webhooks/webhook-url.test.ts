// Webhook targets are public HTTPS endpoints on port 443, nothing else: every address class the
// network guard refuses, every other port, other schemes and credentials are refused at submission.
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, parseWebhookUrl } from './webhook-url';

const refused: [url: string, why: RegExp][] = [
  ['https://[::127.0.0.1]/hook', /public internet address/], // IPv4-compatible IPv6
  ['https://[::ffff:127.0.0.1]/hook', /public internet address/], // IPv4-mapped
  ['https://[::ffff:8.8.8.8]/hook', /public internet address/], // IPv4-mapped, public inside
  ['https://[64:ff9b::7f00:1]/hook', /public internet address/], // NAT64
  ['https://[64:ff9b:1::a00:1]/hook', /public internet address/], // local-use NAT64
  ['https://[2002:7f00:1::1]/hook', /public internet address/], // 6to4
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', /public internet address/], // Teredo
  ['https://[fd12:3456::1]/hook', /public internet address/], // ULA
  ['https://[fec0::1]/hook', /public internet address/], // site-local
  ['https://[ff02::1]/hook', /public internet address/], // multicast
  ['https://[2001:db8::1]/hook', /public internet address/], // documentation
  ['https://[2001:2::1]/hook', /public internet address/], // benchmarking
  ['https://[fe80::1]/hook', /public internet address/],
  ['https://192.0.2.10/hook', /public internet address/], // documentation
  ['https://198.18.0.1/hook', /public internet address/], // benchmarking
  ['https://240.0.0.1/hook', /public internet address/], // reserved
  ['https://224.0.0.251/hook', /public internet address/], // multicast
  ['https://0x7f.1/hook', /public internet address/], // 127.0.0.1 in hex shorthand
  ['https://2130706433/hook', /public internet address/], // 127.0.0.1 as one number
  ['https://localhost/hook', /public internet address/],
  ['https://93.184.215.14:25/hook', /port \(443\)/],
  ['https://93.184.215.14:22/hook', /port \(443\)/],
  ['https://93.184.215.14:5432/hook', /port \(443\)/],
  ['https://93.184.215.14:6379/hook', /port \(443\)/],
  ['https://93.184.215.14:11211/hook', /port \(443\)/],
  ['https://93.184.215.14:0/hook', /port \(443\)/],
  ['https://93.184.215.14:8443/hook', /port \(443\)/],
  ['http://93.184.215.14/hook', /https/],
  ['ftp://93.184.215.14/hook', /https/],
  ['https://user:pass@93.184.215.14/hook', /credentials/],
  ['not a url', /absolute https/],
];

describe('webhook URL rules', () => {
  it.each(refused)('refuses %s', async (url, why) => {
    const r = await checkWebhookUrl(url, { allowPrivate: false });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(why);
  });

  it.each(['https://93.184.215.14/hook', 'https://93.184.215.14:443/hook', 'https://[2606:4700:4700::1111]/hook'])('accepts the public HTTPS endpoint %s', async (url) => {
    const r = await checkWebhookUrl(url, { allowPrivate: false });
    expect(r.ok).toBe(true);
  });

  it('lets tests (WEBHOOK_ALLOW_PRIVATE) use plain http on a loopback port', () => {
    expect(parseWebhookUrl('http://127.0.0.1:4567/hook', true).ok).toBe(true);
    expect(parseWebhookUrl('http://127.0.0.1:4567/hook', false).ok).toBe(false);
  });
});
