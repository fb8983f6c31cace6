// A real customer's list through bulk validation, end to end: a generated list (tests/fixtures/
// customer-list.ts) exported by Mailchimp, HubSpot and Excel, uploaded through the dashboard door
// to the simulated mail internet, and the downloaded result file read as the customer reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { DomainSpec } from '../mailworld/index';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { CP1252_SAFE, customerContacts, DIALECTS, DISPOSABLE, FORMULA_ADDRESSES, dialectFile, IDN_ASCII, IDN_UNICODE, LIST_DOMAIN, MAILBOXES, OTHER_DOMAIN, ROLE_LOCALS, TYPOS, uniqueAddresses } from '../fixtures/customer-list';
import { signUpOnPlan, startProbeWorld, uploadCsv, waitForJob, type ProbeWorld } from './jobs.world';

/** c0…c149 exist at the shop; c150…c199 do not. */
function customerWorld(): DomainSpec[] {
  const mx = (domain: string, n: number) => [{ host: `mx.${domain}`, priority: 10, ip: `127.94.16.${n}`, server: { maxRcptsPerSession: 100 } }];
  return [
    { domain: LIST_DOMAIN, scenario: 'plain', mx: mx(LIST_DOMAIN, 1), mailboxes: Object.fromEntries(MAILBOXES.slice(0, 150).map((l) => [l, 'ok' as const])), addresses: MAILBOXES },
    { domain: OTHER_DOMAIN, scenario: 'plain', mx: mx(OTHER_DOMAIN, 2), mailboxes: Object.fromEntries(ROLE_LOCALS.map((l) => [l, 'ok' as const])), addresses: ROLE_LOCALS },
    { domain: IDN_ASCII, scenario: 'plain', mx: mx(IDN_ASCII, 3), mailboxes: { ida: 'ok', jon: 'ok' }, addresses: ['ida', 'jon'] },
  ];
}

const HEADER = ['Email', 'Result', 'Deliverability Score', 'Syntax Valid', 'DNS Valid', 'MX Valid', 'SMTP Valid', 'Role Detected', 'Disposable Provider', 'Checked At'];

let pw: ProbeWorld;
let ts: TestServer;
beforeAll(async () => {
  pw = await startProbeWorld(customerWorld());
  ts = await startTestServer({ role: 'all', probeUrls: [pw.url], probeToken: pw.token, env: { STORAGE_DIR: `.data/test/storage-list16-${Date.now()}` } });
}, 60_000);
afterAll(async () => {
  await ts?.stop();
  await pw?.stop();
});

describe('a customer list through bulk validation', () => {
  const contacts = customerContacts();
  for (const dialect of DIALECTS) {
    it(`${dialect.name} export: one result row per unique address, spec columns, formulas escaped, counts matching the file`, { timeout: 90_000 }, async () => {
      const { client } = await signUpOnPlan(ts, `list16-${dialect.name}@example.com`, 'starter', 1000);
      const want = uniqueAddresses(contacts).map((a) => (dialect.encoding === 'cp1252' ? CP1252_SAFE(a) : a));
      const up = await uploadCsv(client, `${dialect.name} export.csv`, dialectFile(dialect, contacts));
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      expect(up.body.totalEmails).toBe(want.length);
      expect(up.body.duplicates).toBe(contacts.length - want.length);
      const job = await waitForJob(ts.testDb.db, up.body.jobId, { timeoutMs: 80_000 });
      expect(job.status).toBe('completed');

      const res = await client.request(`/api/jobs/${job.id}/export`);
      expect(res.status).toBe(200);
      const text = await res.text();
      const rows = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: false }) as string[][];
      expect(rows[0]).toEqual(HEADER);
      const raw = rows.slice(1);
      // A cell a spreadsheet would run is escaped with a leading ' (and only such a cell).
      for (const a of FORMULA_ADDRESSES) expect(raw.map((r) => r[0])).toContain(`'${a}`);
      expect(raw.filter((r) => r[0]!.startsWith("'")).map((r) => r[0]).sort()).toEqual(FORMULA_ADDRESSES.map((a) => `'${a}`).sort());
      const body = raw.map((r) => [r[0]!.replace(/^'/, ''), ...r.slice(1)]);
      // One row per unique address, none lost, none twice.
      expect(body.map((r) => r[0]).sort()).toEqual([...want].sort());
      const by = new Map(body.map((r) => [r[0]!, Object.fromEntries(HEADER.map((h, i) => [h, r[i]!]))]));

      for (const r of body) {
        expect(['valid', 'invalid', 'risky', 'unknown']).toContain(r[1]);
        expect(r[2]).toMatch(/^\d{1,3}$/);
        for (const c of r.slice(3, 9)) expect(['Yes', 'No']).toContain(c);
        expect(r[9]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
      expect(by.get(`c0@${LIST_DOMAIN}`)).toMatchObject({ Result: 'valid', 'Syntax Valid': 'Yes', 'MX Valid': 'Yes', 'SMTP Valid': 'Yes', 'Role Detected': 'No', 'Disposable Provider': 'No' });
      expect(by.get(`c199@${LIST_DOMAIN}`)).toMatchObject({ Result: 'invalid', 'SMTP Valid': 'No' });
      for (const l of ROLE_LOCALS) expect(by.get(`${l}@${OTHER_DOMAIN}`)?.['Role Detected'], l).toBe('Yes');
      expect(by.get(`c6+newsletter@${LIST_DOMAIN}`)?.['Role Detected']).toBe('No');
      for (const a of DISPOSABLE) expect(by.get(a)?.['Disposable Provider'], a).toBe('Yes');
      for (const a of TYPOS) expect(by.get(a)?.Result, a).not.toBe('valid');
      expect(by.get(`kim@${LIST_DOMAIN}.`)?.Result).toBe('invalid');
      expect(by.get(`ida@${IDN_UNICODE}`)?.Result).toBe('valid');
      expect(by.get(`jon@${IDN_ASCII}`)?.Result).toBe('valid');

      // The job's summary counts are the file's.
      const list = await client.trpcQuery('jobs.list');
      const summary = list.body.result.data.jobs.find((j: { id: string }) => j.id === job.id);
      expect(summary).toMatchObject({ total_emails: want.length, processed_emails: want.length, status: 'completed' });
      const count = (k: string) => body.filter((r) => r[1] === k).length;
      expect({ valid: summary.valid_count, invalid: summary.invalid_count, risky: summary.risky_count }).toEqual({ valid: count('valid'), invalid: count('invalid'), risky: count('risky') });
      expect(summary.valid_count + summary.invalid_count + summary.risky_count).toBe(body.length);
    });
  }
});

describe('the same list through /v1', () => {
  it('POST /v1/bulk (multipart, the HubSpot UTF-16 export) and GET /v1/jobs/{id}/results?format=csv: one row per unique address, the public columns', { timeout: 90_000 }, async () => {
    const contacts = customerContacts();
    const dialect = DIALECTS.find((d) => d.name === 'hubspot')!;
    const want = uniqueAddresses(contacts);
    const { client } = await signUpOnPlan(ts, 'list16-api@example.com', 'starter', 1000);
    const key = (await client.trpcMutation('apiKeys.create', { name: 'list16' })).body.result.data.api_key as string;
    const form = new FormData();
    form.append('file', new Blob([dialectFile(dialect, contacts)], { type: 'text/csv' }), 'hubspot export.csv');
    const res = await fetch(`${ts.url}/v1/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const body = (await res.json()) as Record<string, any>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.total_emails).toBe(want.length);
    expect((await waitForJob(ts.testDb.db, body.job_id, { timeoutMs: 80_000 })).status).toBe('completed');

    const out = await fetch(`${ts.url}/v1/jobs/${body.job_id}/results?format=csv`, { headers: { authorization: `Bearer ${key}` } });
    expect(out.status).toBe(200);
    const rows = parse(await out.text(), { relax_column_count: false }) as string[][];
    expect(rows[0]).toEqual(['email', 'result', 'reason', 'deliverability_score', 'syntax_valid', 'mx_valid', 'smtp_valid', 'disposable_provider', 'role_detected', 'charged']);
    expect(rows.slice(1).map((r) => r[0]!.replace(/^'(?=[-=+])/, '')).sort()).toEqual([...want].sort());
    for (const a of FORMULA_ADDRESSES) expect(rows.map((r) => r[0])).toContain(`'${a}`);
    const by = new Map(rows.slice(1).map((r) => [r[0]!, r]));
    expect(by.get(`c199@${LIST_DOMAIN}`)?.slice(1, 3)).toEqual(['invalid', 'mailbox_not_found']);
    for (const l of ROLE_LOCALS) expect(by.get(`${l}@${OTHER_DOMAIN}`)?.[8], l).toBe('true');
    for (const a of DISPOSABLE) expect(by.get(a)?.[7], a).toBe('true');
  });
});
