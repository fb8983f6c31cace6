// What a bulk job's results call each address, and what the OpenAPI document says of it. A bulk job
// lists each address once, as csv-cells' normalizeEmail writes it (trimmed, mailto: and "Name <…>"
// removed, the domain in lower case; John@ and john@ one address, as first sent), so its results carry that form, not the exact string sent —
// an integrator matching results to the list they sent must be told, not promised "exactly as
// received".
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../server/rest/openapi';
import { ownerOn } from '../helpers/accounts';
import { testServer } from '../helpers/test-server';

const ts = testServer({ role: 'all' });

describe('the email field of bulk results', () => {
  it('is the address as the job lists it (domain in lower case), and the OpenAPI document says so', async () => {
    const owner = await ownerOn(ts, 'pro', 'bulk-email-form');
    const key = (await owner.client.trpcMutation('apiKeys.create', { name: 'sandbox', test: true })).body.result.data.api_key as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const sent = ['  Valid@SANDBOX.Mailvet.dev ', 'valid@sandbox.mailvet.dev', 'Ann Lee <Invalid@Sandbox.mailvet.dev>'];
    const started = (await (await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers, body: JSON.stringify({ emails: sent }) })).json()) as { job_id: string; total_emails: number };
    expect(started.total_emails).toBe(2); // Valid@… and valid@… are one mailbox, checked as first sent
    let results: Array<{ email: string }> = [];
    for (let i = 0; i < 100 && results.length < 2; i++) {
      results = ((await (await fetch(`${ts.url}/v1/jobs/${started.job_id}/results`, { headers })).json()) as { results: Array<{ email: string }> }).results;
      if (results.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(results.map((r) => r.email).sort()).toEqual(['Invalid@sandbox.mailvet.dev', 'Valid@sandbox.mailvet.dev']);
    // A single check: the address sent, without its surrounding spaces.
    const single = (await (await fetch(`${ts.url}/v1/validate`, { method: 'POST', headers, body: JSON.stringify({ email: '  Valid@SANDBOX.mailvet.dev ' }) })).json()) as { email: string };
    expect(single.email).toBe('Valid@SANDBOX.mailvet.dev');

    const doc = openApiDocument('http://127.0.0.1:1') as unknown as { components: { schemas: { ValidationResult: { properties: { email: { description: string } } } } } };
    const described = doc.components.schemas.ValidationResult.properties.email.description;
    expect(described).not.toContain('exactly as received');
    expect(described).toContain('domain in lower case');
    expect(described).toContain('without surrounding spaces');
    expect(described).toContain('differs only in letter case');
  });
});
