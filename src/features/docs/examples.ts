// The code examples of the Documentation page: one entry per call, in cURL, Node.js, Python and
// PHP. The page renders this list (Examples tab, and each endpoint of the API Reference shows its
// cURL and response); tests/integration/docs.examples.test.ts runs every cURL and Node example
// against a running server with a real key and checks what they print. The page shows its own
// origin in place of SAMPLE_ORIGIN. Every example reads the key from MAILVET_API_KEY; examples
// about one job read its id from JOB_ID; the webhook receiver reads MAILVET_WEBHOOK_SECRET and PORT.

export interface ApiExample {
  /** Stable id (anchors, and the test's table of checks). */
  id: string;
  /** The endpoint it calls, as `METHOD /v1/path` (matches the OpenAPI document); null for a receiver. */
  operation: string | null;
  title: string;
  description: string;
  /** A shell command (omitted where cURL cannot play the part, e.g. receiving a webhook). */
  curl?: string;
  node: string;
  python: string;
  php: string;
  /** A sample answer, shown under the cURL in the API Reference. */
  response?: string;
}

/** The origin the samples are written with; the page shows its own origin instead. */
export const SAMPLE_ORIGIN = 'https://mailvet.io';

/** The sample with the API origin in place of SAMPLE_ORIGIN. */
export function exampleCode(code: string, origin: string): string {
  return code.replaceAll(SAMPLE_ORIGIN, origin.replace(/\/$/, ''));
}

export const validateResponse = `{
  "email": "jane.cooper@acme-corp.com",
  "result": "valid",
  "reason": "accepted",
  "deliverability_score": 96,
  "syntax_valid": true,
  "mx_valid": true,
  "smtp_valid": true,
  "disposable_provider": false,
  "role_detected": false,
  "charged": true
}`;

export const errorResponse = `HTTP/1.1 429 Too Many Requests
Retry-After: 1
Content-Type: application/problem+json
X-Request-Id: 3f6d0c1e-8a8b-4a53-9a1e-0d2b9a3c7f10

{
  "type": "https://mailvet.io/documentation#error-RATE_LIMITED",
  "title": "Too Many Requests",
  "status": 429,
  "detail": "Rate limit exceeded (10 requests per second on your plan). Retry after 1 second.",
  "code": "RATE_LIMITED",
  "message": "Rate limit exceeded (10 requests per second on your plan). Retry after 1 second."
}`;

export const webhookPayload = `POST /hooks/mailvet HTTP/1.1
Content-Type: application/json
User-Agent: Mailvet-Webhooks/1.0
X-Mailvet-Event: job.completed
X-Mailvet-Signature: sha256=5d41402abc4b2a76b9719d911017c592e3b0c44298fc1c149afbf4c8996fb924
X-Mailvet-Delivery: 6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11
X-Mailvet-Attempt: 1

{
  "event": "job.completed",
  "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
  "status": "completed",
  "total_emails": 3,
  "processed_emails": 3,
  "created_at": "2026-11-22T09:14:03.512Z",
  "completed_at": "2026-11-22T09:14:41.907Z"
}`;

/** schedule.run_completed (account webhooks): what changed since the schedule's previous run. */
export const scheduleRunPayload = `POST /hooks/mailvet HTTP/1.1
Content-Type: application/json
X-Mailvet-Event: schedule.run_completed
X-Mailvet-Signature: sha256=0b6e4ab1f3e8c3a1d1f4f0b8f0a6f77c93a0d3b1f0e1c4a9d2b7e6f5a4c3b2a1
X-Mailvet-Delivery: 3c9d0e5a-8b1f-4c2d-9e7a-6f5b4a3c2d1e
X-Mailvet-Attempt: 1

{
  "event": "schedule.run_completed",
  "schedule_id": "a2f4c6e8-1b3d-4f5a-8c7e-9d0b1a2c3e4f",
  "schedule_name": "Newsletter list",
  "job_id": "7d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a",
  "previous_job_id": "1e2d3c4b-5a6f-4e7d-8c9b-0a1f2e3d4c5b",
  "total_emails": 1200,
  "processed_emails": 1200,
  "completed_at": "2026-11-29T06:00:41.907Z",
  "changed": [
    { "email": "ana@example.com", "previous": "valid", "current": "invalid", "reason": "mailbox_not_found" },
    { "email": "li@example.com", "previous": "invalid", "current": "valid", "reason": "accepted" }
  ],
  "changed_count": 2,
  "truncated": false
}`;

const nodeHeader = `// Node.js 18+ (built-in fetch), as an ES module: node example.mjs
const BASE_URL = 'https://mailvet.io/v1';
const headers = { Authorization: \`Bearer \${process.env.MAILVET_API_KEY}\` };

/** Errors are application/problem+json: { status, code, detail }. */
async function call(method, path, body, extra = {}) {
  const res = await fetch(BASE_URL + path, {
    method,
    headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}), ...extra },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json();
  if (!res.ok) throw new Error(\`Mailvet \${res.status} \${data.code}: \${data.detail}\`);
  return data;
}
`;

const pythonHeader = `# Python 3 with requests (pip install requests)
import os
import requests

BASE_URL = "https://mailvet.io/v1"
session = requests.Session()
session.headers["Authorization"] = f"Bearer {os.environ['MAILVET_API_KEY']}"


def call(method, path, **kwargs):
    res = session.request(method, BASE_URL + path, timeout=30, **kwargs)
    data = res.json()
    if not res.ok:  # errors are application/problem+json
        raise RuntimeError(f"Mailvet {res.status_code} {data['code']}: {data['detail']}")
    return data
`;

const phpHeader = `<?php
// PHP 8 with the cURL extension.
function mailvet(string $method, string $path, ?array $body = null, array $headers = []): array
{
    $ch = curl_init('https://mailvet.io/v1' . $path);
    $headers[] = 'Authorization: Bearer ' . getenv('MAILVET_API_KEY');
    if ($body !== null) {
        $headers[] = 'Content-Type: application/json';
        curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($body));
    }
    curl_setopt_array($ch, [
        CURLOPT_CUSTOMREQUEST => $method,
        CURLOPT_HTTPHEADER => $headers,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_TIMEOUT => 30,
    ]);
    $data = json_decode(curl_exec($ch), true);
    $status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
    curl_close($ch);
    if ($status >= 400) { // errors are application/problem+json
        throw new RuntimeException("Mailvet $status {$data['code']}: {$data['detail']}");
    }
    return $data;
}
`;

export const EXAMPLES: readonly ApiExample[] = [
  {
    id: 'validate',
    operation: 'POST /v1/validate',
    title: 'Validate one address',
    description: 'The verdict in one call. Act on result; use reason and deliverability_score to decide on risky addresses.',
    curl: `curl -sS --fail-with-body -X POST https://mailvet.io/v1/validate \\
  -H "Authorization: Bearer $MAILVET_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"email": "jane.cooper@acme-corp.com"}'`,
    node: `${nodeHeader}
const check = await call('POST', '/validate', { email: 'jane.cooper@acme-corp.com' });
console.log(\`\${check.email}: \${check.result} (\${check.reason}, score \${check.deliverability_score})\`);`,
    python: `${pythonHeader}
check = call("POST", "/validate", json={"email": "jane.cooper@acme-corp.com"})
print(f"{check['email']}: {check['result']} ({check['reason']}, score {check['deliverability_score']})")`,
    php: `${phpHeader}
$check = mailvet('POST', '/validate', ['email' => 'jane.cooper@acme-corp.com']);
echo "{$check['email']}: {$check['result']} ({$check['reason']}, score {$check['deliverability_score']})\\n";`,
    response: validateResponse,
  },
  {
    id: 'bulk-json',
    operation: 'POST /v1/bulk',
    title: 'Start a bulk job (JSON)',
    description: 'Up to 10,000 addresses in one request; the job runs in the background. Keep job_id to follow it.',
    curl: `curl -sS --fail-with-body -X POST https://mailvet.io/v1/bulk \\
  -H "Authorization: Bearer $MAILVET_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"emails": ["jane@acme-corp.com", "info@example.org", "bad@@example"]}'`,
    node: `${nodeHeader}
const job = await call('POST', '/bulk', { emails: ['jane@acme-corp.com', 'info@example.org', 'bad@@example'] });
console.log(\`job \${job.job_id}: \${job.total_emails} addresses, \${job.status}\`);`,
    python: `${pythonHeader}
job = call("POST", "/bulk", json={"emails": ["jane@acme-corp.com", "info@example.org", "bad@@example"]})
print(f"job {job['job_id']}: {job['total_emails']} addresses, {job['status']}")`,
    php: `${phpHeader}
$job = mailvet('POST', '/bulk', ['emails' => ['jane@acme-corp.com', 'info@example.org', 'bad@@example']]);
echo "job {$job['job_id']}: {$job['total_emails']} addresses, {$job['status']}\\n";`,
    response: `{
  "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
  "total_emails": 3,
  "status": "pending"
}`,
  },
  {
    id: 'idempotency',
    operation: 'POST /v1/bulk',
    title: 'Retry safely with Idempotency-Key',
    description:
      'Send the same Idempotency-Key with the same body again (after a timeout, say) and you get the original answer: the same job, no second charge, with the header Idempotent-Replayed: true. Keys are kept 24 hours.',
    curl: `curl -sS --fail-with-body -X POST https://mailvet.io/v1/bulk \\
  -H "Authorization: Bearer $MAILVET_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: newsletter-import-2026-11-23" \\
  -d '{"emails": ["jane@acme-corp.com", "info@example.org"]}'`,
    node: `${nodeHeader}
const body = { emails: ['jane@acme-corp.com', 'info@example.org'] };
const key = { 'Idempotency-Key': 'newsletter-import-2026-11-23' };
const first = await call('POST', '/bulk', body, key);
const retry = await call('POST', '/bulk', body, key); // e.g. after a network timeout
console.log(first.job_id === retry.job_id ? \`same job \${first.job_id}\` : 'different jobs');`,
    python: `${pythonHeader}
body = {"emails": ["jane@acme-corp.com", "info@example.org"]}
key = {"Idempotency-Key": "newsletter-import-2026-11-23"}
first = call("POST", "/bulk", json=body, headers=key)
retry = call("POST", "/bulk", json=body, headers=key)  # e.g. after a network timeout
print(f"same job {first['job_id']}" if first["job_id"] == retry["job_id"] else "different jobs")`,
    php: `${phpHeader}
$body = ['emails' => ['jane@acme-corp.com', 'info@example.org']];
$key = ['Idempotency-Key: newsletter-import-2026-11-23'];
$first = mailvet('POST', '/bulk', $body, $key);
$retry = mailvet('POST', '/bulk', $body, $key); // e.g. after a network timeout
echo $first['job_id'] === $retry['job_id'] ? "same job {$first['job_id']}\\n" : "different jobs\\n";`,
  },
  {
    id: 'job-status',
    operation: 'GET /v1/jobs/{id}',
    title: "Follow a job's progress",
    description: 'Poll until the status is completed or failed (or pass webhook_url and let us call you).',
    curl: `curl -sS --fail-with-body https://mailvet.io/v1/jobs/$JOB_ID \\
  -H "Authorization: Bearer $MAILVET_API_KEY"`,
    node: `${nodeHeader}
let job;
do {
  if (job) await new Promise((r) => setTimeout(r, 2000));
  job = await call('GET', \`/jobs/\${process.env.JOB_ID}\`);
  console.log(\`\${job.status}: \${job.processed_emails}/\${job.total_emails}\`);
} while (job.status === 'pending' || job.status === 'processing');`,
    python: `${pythonHeader}
import time

while True:
    job = call("GET", f"/jobs/{os.environ['JOB_ID']}")
    print(f"{job['status']}: {job['processed_emails']}/{job['total_emails']}")
    if job["status"] in ("completed", "failed"):
        break
    time.sleep(2)`,
    php: `${phpHeader}
do {
    $job = mailvet('GET', '/jobs/' . getenv('JOB_ID'));
    echo "{$job['status']}: {$job['processed_emails']}/{$job['total_emails']}\\n";
    $running = in_array($job['status'], ['pending', 'processing'], true);
    if ($running) sleep(2);
} while ($running);`,
    response: `{
  "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
  "status": "processing",
  "total_emails": 3,
  "processed_emails": 2,
  "created_at": "2026-11-22T09:14:03.512Z",
  "completed_at": null
}`,
  },
  {
    id: 'job-results',
    operation: 'GET /v1/jobs/{id}/results',
    title: "Page through a job's results",
    description: 'Ask for pages of limit results and pass next_cursor back as cursor until it is null.',
    curl: `curl -sS --fail-with-body "https://mailvet.io/v1/jobs/$JOB_ID/results?limit=2" \\
  -H "Authorization: Bearer $MAILVET_API_KEY"`,
    node: `${nodeHeader}
let cursor = null;
let count = 0;
do {
  const qs = new URLSearchParams({ limit: '2', ...(cursor ? { cursor } : {}) });
  const page = await call('GET', \`/jobs/\${process.env.JOB_ID}/results?\${qs}\`);
  for (const r of page.results) console.log(\`\${r.email}: \${r.result} (\${r.reason})\`);
  count += page.results.length;
  cursor = page.next_cursor;
} while (cursor);
console.log(\`\${count} results\`);`,
    python: `${pythonHeader}
cursor, count = None, 0
while True:
    params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
    page = call("GET", f"/jobs/{os.environ['JOB_ID']}/results", params=params)
    for r in page["results"]:
        print(f"{r['email']}: {r['result']} ({r['reason']})")
    count += len(page["results"])
    cursor = page["next_cursor"]
    if not cursor:
        break
print(f"{count} results")`,
    php: `${phpHeader}
$cursor = null;
$count = 0;
do {
    $qs = http_build_query(['limit' => 2] + ($cursor ? ['cursor' => $cursor] : []));
    $page = mailvet('GET', '/jobs/' . getenv('JOB_ID') . '/results?' . $qs);
    foreach ($page['results'] as $r) echo "{$r['email']}: {$r['result']} ({$r['reason']})\\n";
    $count += count($page['results']);
    $cursor = $page['next_cursor'];
} while ($cursor);
echo "$count results\\n";`,
    response: `{
  "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
  "status": "completed",
  "total_emails": 3,
  "results": [
    {
      "email": "jane@acme-corp.com",
      "result": "valid",
      "reason": "accepted",
      "deliverability_score": 95,
      "syntax_valid": true,
      "mx_valid": true,
      "smtp_valid": true,
      "disposable_provider": false,
      "role_detected": false,
      "charged": true
    },
    {
      "email": "info@example.org",
      "result": "risky",
      "reason": "catch_all",
      "deliverability_score": 55,
      "syntax_valid": true,
      "mx_valid": true,
      "smtp_valid": true,
      "disposable_provider": false,
      "role_detected": true,
      "charged": true
    }
  ],
  "next_cursor": "48213"
}`,
  },
  {
    id: 'bulk-csv',
    operation: 'POST /v1/bulk',
    title: 'Start a bulk job from a CSV file',
    description:
      'Upload the file as multipart/form-data in the field "file" (the dashboard\'s rules: up to 10 MB, an email column or the first column, 10,000 unique addresses). Add a webhook_url field to be called when it ends.',
    curl: `curl -sS --fail-with-body -X POST https://mailvet.io/v1/bulk \\
  -H "Authorization: Bearer $MAILVET_API_KEY" \\
  -F "file=@contacts.csv;type=text/csv"`,
    node: `${nodeHeader}
import fs from 'node:fs';

const form = new FormData(); // fetch sets the multipart Content-Type and boundary
form.append('file', new Blob([fs.readFileSync('contacts.csv')], { type: 'text/csv' }), 'contacts.csv');
const res = await fetch(BASE_URL + '/bulk', { method: 'POST', headers, body: form });
const job = await res.json();
if (!res.ok) throw new Error(\`Mailvet \${res.status} \${job.code}: \${job.detail}\`);
console.log(\`job \${job.job_id}: \${job.total_emails} addresses, \${job.status}\`);`,
    python: `${pythonHeader}
with open("contacts.csv", "rb") as f:  # requests builds the multipart body
    job = call("POST", "/bulk", files={"file": ("contacts.csv", f, "text/csv")})
print(f"job {job['job_id']}: {job['total_emails']} addresses, {job['status']}")`,
    php: `<?php
// PHP 8 with the cURL extension: an array with a CURLFile is sent as multipart/form-data.
$ch = curl_init('https://mailvet.io/v1/bulk');
curl_setopt_array($ch, [
    CURLOPT_POST => true,
    CURLOPT_HTTPHEADER => ['Authorization: Bearer ' . getenv('MAILVET_API_KEY')],
    CURLOPT_POSTFIELDS => ['file' => new CURLFile('contacts.csv', 'text/csv', 'contacts.csv')],
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_TIMEOUT => 60,
]);
$job = json_decode(curl_exec($ch), true);
$status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
curl_close($ch);
if ($status >= 400) { // errors are application/problem+json
    throw new RuntimeException("Mailvet $status {$job['code']}: {$job['detail']}");
}
echo "job {$job['job_id']}: {$job['total_emails']} addresses, {$job['status']}\\n";`,
  },
  {
    id: 'estimate',
    operation: 'POST /v1/estimate',
    title: 'Estimate a list before validating it (free)',
    description:
      'Send a sample of up to 100 addresses: syntax and DNS/MX only, no SMTP, nothing stored, no credit used. You get each address\'s outcome and a predicted bounce rate (null when nothing could be decided).',
    curl: `curl -sS --fail-with-body -X POST https://mailvet.io/v1/estimate \\
  -H "Authorization: Bearer $MAILVET_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"emails": ["jane@acme-corp.com", "info@example.org", "bad@@example"]}'`,
    node: `${nodeHeader}
const est = await call('POST', '/estimate', { emails: ['jane@acme-corp.com', 'info@example.org', 'bad@@example'] });
for (const r of est.results) console.log(\`\${r.email}: \${r.outcome} (\${r.reason})\`);
const rate = est.predicted_bounce_rate === null ? 'unknown' : \`\${(est.predicted_bounce_rate * 100).toFixed(1)}%\`;
console.log(\`\${est.checked} checked: \${est.deliverable_domains} deliverable domains, \${est.undeliverable} undeliverable, \${est.undecided} undecided; predicted bounce rate \${rate}\`);`,
    python: `${pythonHeader}
est = call("POST", "/estimate", json={"emails": ["jane@acme-corp.com", "info@example.org", "bad@@example"]})
for r in est["results"]:
    print(f"{r['email']}: {r['outcome']} ({r['reason']})")
rate = "unknown" if est["predicted_bounce_rate"] is None else f"{est['predicted_bounce_rate'] * 100:.1f}%"
print(f"{est['checked']} checked: {est['deliverable_domains']} deliverable domains, {est['undeliverable']} undeliverable, {est['undecided']} undecided; predicted bounce rate {rate}")`,
    php: `${phpHeader}
$est = mailvet('POST', '/estimate', ['emails' => ['jane@acme-corp.com', 'info@example.org', 'bad@@example']]);
foreach ($est['results'] as $r) echo "{$r['email']}: {$r['outcome']} ({$r['reason']})\\n";
$rate = $est['predicted_bounce_rate'] === null ? 'unknown' : sprintf('%.1f%%', $est['predicted_bounce_rate'] * 100);
echo "{$est['checked']} checked: {$est['deliverable_domains']} deliverable domains, {$est['undeliverable']} undeliverable, {$est['undecided']} undecided; predicted bounce rate $rate\\n";`,
    response: `{
  "results": [
    { "email": "jane@acme-corp.com", "outcome": "deliverable_domain", "reason": "smtp_not_checked", "syntax_valid": true, "mx_valid": true, "disposable_provider": false, "role_detected": false },
    { "email": "info@example.org", "outcome": "deliverable_domain", "reason": "smtp_not_checked", "syntax_valid": true, "mx_valid": true, "disposable_provider": false, "role_detected": true },
    { "email": "bad@@example", "outcome": "undeliverable", "reason": "syntax", "syntax_valid": false, "mx_valid": false, "disposable_provider": false, "role_detected": false }
  ],
  "checked": 3,
  "deliverable_domains": 2,
  "undeliverable": 1,
  "undecided": 0,
  "predicted_bounce_rate": 0.3533
}`,
  },
  {
    id: 'jobs-list',
    operation: 'GET /v1/jobs',
    title: 'List your jobs',
    description: 'Newest first. Ask for pages of limit jobs (up to 100) and pass next_cursor back as cursor until it is null.',
    curl: `curl -sS --fail-with-body "https://mailvet.io/v1/jobs?limit=2" \\
  -H "Authorization: Bearer $MAILVET_API_KEY"`,
    node: `${nodeHeader}
let cursor = null;
let count = 0;
do {
  const qs = new URLSearchParams({ limit: '2', ...(cursor ? { cursor } : {}) });
  const page = await call('GET', \`/jobs?\${qs}\`);
  for (const j of page.jobs) console.log(\`\${j.job_id} \${j.status}: \${j.processed_emails}/\${j.total_emails}\`);
  count += page.jobs.length;
  cursor = page.next_cursor;
} while (cursor);
console.log(\`\${count} jobs\`);`,
    python: `${pythonHeader}
cursor, count = None, 0
while True:
    params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
    page = call("GET", "/jobs", params=params)
    for j in page["jobs"]:
        print(f"{j['job_id']} {j['status']}: {j['processed_emails']}/{j['total_emails']}")
    count += len(page["jobs"])
    cursor = page["next_cursor"]
    if not cursor:
        break
print(f"{count} jobs")`,
    php: `${phpHeader}
$cursor = null;
$count = 0;
do {
    $qs = http_build_query(['limit' => 2] + ($cursor ? ['cursor' => $cursor] : []));
    $page = mailvet('GET', '/jobs?' . $qs);
    foreach ($page['jobs'] as $j) echo "{$j['job_id']} {$j['status']}: {$j['processed_emails']}/{$j['total_emails']}\\n";
    $count += count($page['jobs']);
    $cursor = $page['next_cursor'];
} while ($cursor);
echo "$count jobs\\n";`,
    response: `{
  "jobs": [
    {
      "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
      "status": "completed",
      "total_emails": 3,
      "processed_emails": 3,
      "created_at": "2026-11-22T09:14:03.512Z",
      "completed_at": "2026-11-22T09:14:41.907Z"
    },
    {
      "job_id": "1e2d3c4b-5a6f-4e7d-8c9b-0a1f2e3d4c5b",
      "status": "cancelled",
      "total_emails": 1200,
      "processed_emails": 418,
      "created_at": "2026-11-21T16:02:11.004Z",
      "completed_at": "2026-11-21T16:03:09.220Z"
    }
  ],
  "next_cursor": "eyJjIjoiMjAyNi0xMS0yMVQxNjowMjoxMS4wMDRaIn0"
}`,
  },
  {
    id: 'job-results-csv',
    operation: 'GET /v1/jobs/{id}/results',
    title: 'Download filtered results as CSV',
    description:
      'Filter by result (valid, invalid, risky) and reason (comma-separated), and ask for format=csv: the result fields as columns, spreadsheet formulas neutralised. With limit, the next page\'s cursor is in the X-Next-Cursor header.',
    curl: `curl -sS --fail-with-body -o to-review.csv \\
  "https://mailvet.io/v1/jobs/$JOB_ID/results?result=invalid,risky&reason=mailbox_not_found,catch_all&format=csv" \\
  -H "Authorization: Bearer $MAILVET_API_KEY"`,
    node: `${nodeHeader}
import fs from 'node:fs';

const qs = new URLSearchParams({ result: 'invalid,risky', reason: 'mailbox_not_found,catch_all', format: 'csv' });
const res = await fetch(\`\${BASE_URL}/jobs/\${process.env.JOB_ID}/results?\${qs}\`, { headers });
if (!res.ok) {
  const err = await res.json();
  throw new Error(\`Mailvet \${res.status} \${err.code}: \${err.detail}\`);
}
const csv = await res.text();
fs.writeFileSync('to-review.csv', csv);
console.log(\`to-review.csv: \${csv.trim().split('\\r\\n').length - 1} addresses\`);`,
    python: `${pythonHeader}
params = {"result": "invalid,risky", "reason": "mailbox_not_found,catch_all", "format": "csv"}
res = session.get(f"{BASE_URL}/jobs/{os.environ['JOB_ID']}/results", params=params, timeout=60)
if not res.ok:  # errors are application/problem+json
    raise RuntimeError(f"Mailvet {res.status_code} {res.json()['code']}: {res.json()['detail']}")
with open("to-review.csv", "w", newline="", encoding="utf-8") as f:
    f.write(res.text)
print(f"to-review.csv: {len(res.text.strip().splitlines()) - 1} addresses")`,
    php: `<?php
// PHP 8 with the cURL extension.
$qs = http_build_query(['result' => 'invalid,risky', 'reason' => 'mailbox_not_found,catch_all', 'format' => 'csv']);
$ch = curl_init('https://mailvet.io/v1/jobs/' . getenv('JOB_ID') . '/results?' . $qs);
curl_setopt_array($ch, [
    CURLOPT_HTTPHEADER => ['Authorization: Bearer ' . getenv('MAILVET_API_KEY')],
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_TIMEOUT => 60,
]);
$csv = curl_exec($ch);
$status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
curl_close($ch);
if ($status >= 400) { // errors are application/problem+json
    $err = json_decode($csv, true);
    throw new RuntimeException("Mailvet $status {$err['code']}: {$err['detail']}");
}
file_put_contents('to-review.csv', $csv);
echo 'to-review.csv: ' . (count(explode("\\r\\n", trim($csv))) - 1) . " addresses\\n";`,
  },
  {
    id: 'job-cancel',
    operation: 'POST /v1/jobs/{id}/cancel',
    title: 'Cancel a job',
    description:
      'Stops a pending or processing job: nothing more is checked or charged, and the results done so far are kept. Cancelling again gives the same answer; a job that has already completed or failed answers 409 CONFLICT.',
    curl: `curl -sS --fail-with-body -X POST https://mailvet.io/v1/jobs/$JOB_ID/cancel \\
  -H "Authorization: Bearer $MAILVET_API_KEY"`,
    node: `${nodeHeader}
const out = await call('POST', \`/jobs/\${process.env.JOB_ID}/cancel\`);
console.log(\`job \${out.job.job_id} \${out.job.status}: \${out.processed_emails} results kept, \${out.unprocessed_emails} never checked (\${out.credits_not_charged} credits not charged)\`);`,
    python: `${pythonHeader}
out = call("POST", f"/jobs/{os.environ['JOB_ID']}/cancel")
print(f"job {out['job']['job_id']} {out['job']['status']}: {out['processed_emails']} results kept, {out['unprocessed_emails']} never checked ({out['credits_not_charged']} credits not charged)")`,
    php: `${phpHeader}
$out = mailvet('POST', '/jobs/' . getenv('JOB_ID') . '/cancel');
echo "job {$out['job']['job_id']} {$out['job']['status']}: {$out['processed_emails']} results kept, {$out['unprocessed_emails']} never checked ({$out['credits_not_charged']} credits not charged)\\n";`,
    response: `{
  "job": {
    "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
    "status": "cancelled",
    "total_emails": 1200,
    "processed_emails": 418,
    "created_at": "2026-11-22T09:14:03.512Z",
    "completed_at": "2026-11-22T09:14:41.907Z"
  },
  "processed_emails": 418,
  "unprocessed_emails": 782,
  "credits_charged": 418,
  "credits_not_charged": 782
}`,
  },
  {
    id: 'account',
    operation: 'GET /v1/account',
    title: 'Check your plan, credits and key',
    description: 'The account behind the key: plan, credit balance, and the key itself (test or live, scopes, rate limit).',
    curl: `curl -sS --fail-with-body https://mailvet.io/v1/account \\
  -H "Authorization: Bearer $MAILVET_API_KEY"`,
    node: `${nodeHeader}
const account = await call('GET', '/account');
console.log(\`\${account.plan}: \${account.credits_balance} credits, key \${account.key.key_prefix} (\${account.key.scopes.join(', ')})\`);`,
    python: `${pythonHeader}
account = call("GET", "/account")
print(f"{account['plan']}: {account['credits_balance']} credits, key {account['key']['key_prefix']} ({', '.join(account['key']['scopes'])})")`,
    php: `${phpHeader}
$account = mailvet('GET', '/account');
echo "{$account['plan']}: {$account['credits_balance']} credits, key {$account['key']['key_prefix']} (" . implode(', ', $account['key']['scopes']) . ")\\n";`,
  },
  {
    id: 'webhook-verify',
    operation: null,
    title: 'Receive a webhook and verify its signature',
    description:
      'Start a job with webhook_url pointing here. Compute HMAC-SHA256 of the exact raw body with your signing secret (API Keys page) and compare it in constant time with X-Mailvet-Signature before trusting the JSON.',
    node: `// Node.js 18+, no dependencies: node receiver.mjs
import crypto from 'node:crypto';
import http from 'node:http';

const SECRET = process.env.MAILVET_WEBHOOK_SECRET;

function verified(rawBody, header) {
  const expected = Buffer.from('sha256=' + crypto.createHmac('sha256', SECRET).update(rawBody).digest('hex'));
  const received = Buffer.from(header ?? '');
  return expected.length === received.length && crypto.timingSafeEqual(expected, received);
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks); // the exact bytes: verify before parsing
      if (!verified(raw, req.headers['x-mailvet-signature'])) {
        res.writeHead(401).end('bad signature');
        return;
      }
      const event = JSON.parse(raw.toString('utf8'));
      console.log(\`verified \${event.event} for job \${event.job_id}: \${event.processed_emails}/\${event.total_emails}\`);
      res.writeHead(200).end('ok');
    });
  })
  .listen(Number(process.env.PORT ?? 3000));`,
    python: `# Python 3, standard library only: python3 receiver.py
import hashlib
import hmac
import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ["MAILVET_WEBHOOK_SECRET"].encode()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers["Content-Length"]))  # verify before parsing
        expected = "sha256=" + hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, self.headers.get("X-Mailvet-Signature", "")):
            self.send_response(401)
            self.end_headers()
            return
        event = json.loads(raw)
        print(f"verified {event['event']} for job {event['job_id']}")
        self.send_response(200)
        self.end_headers()


HTTPServer(("", int(os.environ.get("PORT", "3000"))), Receiver).serve_forever()`,
    php: `<?php
// PHP 8: the webhook endpoint (e.g. public/hooks/mailvet.php).
$raw = file_get_contents('php://input'); // the exact bytes: verify before parsing
$expected = 'sha256=' . hash_hmac('sha256', $raw, getenv('MAILVET_WEBHOOK_SECRET'));
if (!hash_equals($expected, $_SERVER['HTTP_X_MAILVET_SIGNATURE'] ?? '')) {
    http_response_code(401);
    exit('bad signature');
}
$event = json_decode($raw, true);
error_log("verified {$event['event']} for job {$event['job_id']}");
http_response_code(200);`,
  },
];
