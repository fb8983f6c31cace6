// Signing secrets at rest: AES-256-GCM under WEBHOOK_SECRET_KEY, bound to their account; the key is
// required in production and must be 32 bytes.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, newSigningSecret, parseSecretKey, webhookEncryptionKey } from './webhook-secret';

describe('webhook secret encryption', () => {
  const key = randomBytes(32);

  it('round-trips, never stores the plain secret and refuses another account or key', () => {
    const secret = newSigningSecret();
    const stored = encryptSecret(key, 'acc-1', secret);
    expect(stored).not.toContain(secret.slice(6));
    expect(decryptSecret(key, 'acc-1', stored)).toBe(secret);
    expect(() => decryptSecret(key, 'acc-2', stored)).toThrow();
    expect(() => decryptSecret(randomBytes(32), 'acc-1', stored)).toThrow();
    const [v, iv, tag, ct] = stored.split('.');
    const flipped = `${v}.${iv}.${tag}.${Buffer.from(Buffer.from(ct!, 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64url')}`;
    expect(() => decryptSecret(key, 'acc-1', flipped)).toThrow();
    expect(encryptSecret(key, 'acc-1', secret)).not.toBe(stored); // a fresh IV each time
  });

  it('reads a 32-byte key as hex or base64 and nothing else', () => {
    expect(parseSecretKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretKey('too-short')).toBeNull();
    expect(parseSecretKey(randomBytes(16).toString('hex'))).toBeNull();
  });

  it('requires WEBHOOK_SECRET_KEY in production and refuses a malformed one anywhere', () => {
    expect(() => webhookEncryptionKey({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: undefined }, 'server-secret')).toThrow(/WEBHOOK_SECRET_KEY must be set in production/);
    expect(() => webhookEncryptionKey({ NODE_ENV: 'development', WEBHOOK_SECRET_KEY: 'nope' }, 'server-secret')).toThrow(/32 bytes/);
    expect(webhookEncryptionKey({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: key.toString('hex') }, 'server-secret')).toEqual(key);
    // Outside production an unset key is derived from the server secret: stable, and per server.
    const dev = webhookEncryptionKey({ NODE_ENV: 'development', WEBHOOK_SECRET_KEY: undefined }, 'server-secret');
    expect(dev).toHaveLength(32);
    expect(webhookEncryptionKey({ NODE_ENV: 'test', WEBHOOK_SECRET_KEY: undefined }, 'server-secret')).toEqual(dev);
    expect(webhookEncryptionKey({ NODE_ENV: 'test', WEBHOOK_SECRET_KEY: undefined }, 'other-secret')).not.toEqual(dev);
  });
});
