// DNS rebinding against webhook deliveries: a host that resolves to a public address when the URL is
// submitted (and when the delivery checks it again) and to an inside address a moment later, when
// the connection is made. The address connected to is the one checked (webhook-url.ts guardedLookup):
// no connection to port 443 of anything leaves this process, and the attempt fails (it is retried).
import net from 'node:net';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl } from '../../server/features/webhooks/webhook-url';
import { deliverJobWebhook } from '../../server/features/webhooks/webhook-delivery';
import { ownerOn } from '../helpers/accounts';
import { insertFinishedJob } from '../helpers/jobs';
import { startTestServer, type TestServer } from '../helpers/test-server';

const HOST = 'rebind.example.com';
/** What the name resolves to: the first answer public, every later one inside. */
const INSIDE: Array<{ type: 'A' | 'AAAA'; address: string }> = [
  { type: 'A', address: '127.0.0.1' },
  { type: 'A', address: '169.254.169.254' },
  { type: 'A', address: '10.0.0.5' },
  { type: 'AAAA', address: '::ffff:127.0.0.1' },
  { type: 'AAAA', address: '64:ff9b::a9fe:a9fe' },
];
let inside: (typeof INSIDE)[number] = INSIDE[0]!;
/** Questions of each type still answered as the public host (A: a public address, AAAA: none). */
const publicLeft = { A: 0, AAAA: 0 };
const answerPublicOnce = () => Object.assign(publicLeft, { A: 1, AAAA: 1 });

let ts: TestServer;
let dnsServer: ReturnType<typeof dns2.createServer>;
/** Every connection this process opened to port 443 (a webhook's only port). */
const dialled443: string[] = [];
const originalConnect = net.Socket.prototype.connect;

beforeAll(async () => {
  net.Socket.prototype.connect = function watchedConnect(this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { port?: number | string } | unknown[];
    const opts = (Array.isArray(first) ? first[0] : first) as { port?: number | string; host?: string } | undefined;
    if (opts && typeof opts === 'object' && Number(opts.port) === 443) {
      dialled443.push(String(opts.host));
      this.once('lookup', (_e: Error | null, address: string) => address && dialled443.push(`resolved ${address}`));
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
  dnsServer = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const q = request.questions[0]!;
      const type = q.type === dns2.Packet.TYPE.A ? 'A' : q.type === dns2.Packet.TYPE.AAAA ? 'AAAA' : null;
      if (q.name.toLowerCase() === HOST && type) {
        // One round of public answers (A and AAAA asked side by side), then the inside address.
        if (publicLeft[type] > 0) {
          publicLeft[type]--;
          if (type === 'A') response.answers.push({ name: q.name, type: dns2.Packet.TYPE.A, class: dns2.Packet.CLASS.IN, ttl: 0, address: '93.184.215.14' } as never);
        } else if (type === inside.type) {
          response.answers.push({ name: q.name, type: dns2.Packet.TYPE[type], class: dns2.Packet.CLASS.IN, ttl: 0, address: inside.address } as never);
        }
      }
      send(response);
    },
  });
  await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } } as never);
  const port = (dnsServer.addresses() as unknown as { udp: { port: number } }).udp.port;
  ts = await startTestServer({ env: { WEBHOOK_DNS_SERVERS: `127.0.0.1:${port}`, WEBHOOK_ALLOW_PRIVATE: 'false' } });
}, 60_000);
afterAll(async () => {
  net.Socket.prototype.connect = originalConnect;
  await ts?.stop();
  await dnsServer?.close();
});

describe('a webhook host that rebinds to an inside address after its check', () => {
  it.each(INSIDE)('never connects to it ($type $address): the attempt fails and is retried', async (target) => {
    const owner = await ownerOn(ts, 'pro', 'rebind');
    const url = `https://${HOST}/hook`;
    inside = target;
    // Submission: the name is public, the URL is accepted.
    answerPublicOnce();
    expect((await checkWebhookUrl(url, { allowPrivate: false, dnsServers: ts.server.deps.env.WEBHOOK_DNS_SERVERS })).ok).toBe(true);
    // Delivery: public once more for its own check, then inside when the connection is made.
    answerPublicOnce();
    dialled443.length = 0;
    const jobId = await insertFinishedJob(ts.testDb.db, owner.accountId, { webhookUrl: url });
    await expect(deliverJobWebhook(ts.server.deps, jobId, { number: 1, max: 5 })).rejects.toThrow(/refusing to connect to non-public address/);
    expect(dialled443.filter((d) => d.startsWith('resolved '))).toEqual([]);
    const delivery = await ts.testDb.db.selectFrom('webhook_delivery').select(['status', 'last_error']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'pending', last_error: `refusing to connect to non-public address for ${HOST}` });
  });
});
