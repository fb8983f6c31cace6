// The Documentation page's 429 example (API Reference → Errors) is what a client really gets: the
// same status, the same headers of ours (Retry-After and the rate-limit headers a client paces
// itself by) and the same problem body, on a Pro account's live key over its 10 requests a second.
import { describe, expect, it } from 'vitest';
import { errorResponse, exampleCode } from '../../src/features/docs/examples';
import { ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer();

/** An HTTP answer as the page prints it: status line, headers, a blank line, the body. */
function parse(text: string): { status: number; headers: Map<string, string>; body: Record<string, unknown> } {
  const [head, body] = text.split('\n\n') as [string, string];
  const [statusLine, ...lines] = head.split('\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
}

/** The headers of ours a client reads (not HTTP's own, nor CORS). */
const OURS = /^(x-(?!content-type-options$|frame-options$|powered-by$).*|retry-after|content-type)$/;

describe('the documented 429', () => {
  it('has the headers and body of a real 429 on a Pro key', async () => {
    const owner = await ownerOn(ts, 'pro', 'docs-429');
    const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'docs 429' })).body.result.data.api_key as string;
    const answers = await Promise.all(Array.from({ length: 25 }, () => fetch(`${ts.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } })));
    const limited = answers.find((r) => r.status === 429);
    expect(limited, 'no 429 among 25 requests at once').toBeDefined();
    const real = { headers: limited!.headers, body: (await limited!.json()) as Record<string, unknown> };
    const doc = parse(exampleCode(errorResponse, ts.url));

    expect(doc.status).toBe(429);
    const realOurs = [...real.headers.keys()].filter((h) => OURS.test(h)).sort();
    expect([...doc.headers.keys()].sort()).toEqual(realOurs);
    for (const h of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining']) expect(doc.headers.get(h), h).toBe(real.headers.get(h));
    expect(real.headers.get('content-type')).toMatch(new RegExp(`^${doc.headers.get('content-type')!.replace('+', '\\+')}`));
    expect(doc.body).toEqual(real.body);
  });
});
