// The code examples of the Documentation page: one entry per call, in cURL, JavaScript (the
// browser's fetch), Node.js, Python and PHP. The page renders this list (Examples tab, and each
// endpoint of the API Reference shows its cURL and response); tests/integration/docs.examples.test.ts
// runs every cURL, JavaScript and Node example against a running server with a real key and checks
// what they print. The page shows its own origin in place of SAMPLE_ORIGIN. Every example reads the
// key from MAILVET_API_KEY (in JavaScript, a constant of that name); examples about one job read its
// id from JOB_ID; the webhook receiver reads MAILVET_WEBHOOK_SECRET and PORT.
// Each call is described once (example-languages.ts writes it in every language); only what a
// language does its own way (polling, uploads, downloads, receiving a webhook) is written out here.
import {
  SAMPLE_ORIGIN,
  callLine,
  curlOf,
  literal,
  operationOf,
  pagedCode,
  pathArg,
  phpExchange,
  say,
  type CallSpec,
  type Lang,
  type PagedList,
} from './example-languages';

export { SAMPLE_ORIGIN };

export interface ApiExample {
  /** Stable id (anchors, and the test's table of checks). */
  id: string;
  /** The endpoint it calls, as `METHOD /v1/path` (matches the OpenAPI document); null for a receiver. */
  operation: string | null;
  title: string;
  description: string;
  /** A shell command (omitted where cURL cannot play the part, e.g. receiving a webhook). */
  curl?: string;
  /** Browser JavaScript (fetch); omitted where a page cannot play the part (receiving a webhook). */
  javascript?: string;
  node: string;
  python: string;
  php: string;
  /** A sample answer, shown under the cURL in the API Reference. */
  response?: string;
}

/** The sample with the API origin in place of SAMPLE_ORIGIN. */
export function exampleCode(code: string, origin: string): string {
  return code.replaceAll(SAMPLE_ORIGIN, origin.replace(/\/$/, ''));
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The public job shape as the samples show it: a job of three addresses that has completed. */
const sampleJob = {
  job_id: '6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11',
  status: 'completed',
  total_emails: 3,
  processed_emails: 3,
  created_at: '2026-11-22T09:14:03.512Z',
  completed_at: '2026-11-22T09:14:41.907Z',
  test: false,
};

/** One address's result as the API answers it (a mailbox that accepted, or a risky one). */
function sampleResult(email: string, verdict: { result: string; reason: string; score: number; role?: boolean }) {
  return {
    email,
    result: verdict.result,
    reason: verdict.reason,
    deliverability_score: verdict.score,
    syntax_valid: true,
    mx_valid: true,
    smtp_valid: true,
    disposable_provider: false,
    role_detected: verdict.role ?? false,
    charged: true,
  };
}

export const validateResponse = json(sampleResult('jane.cooper@acme-corp.com', { result: 'valid', reason: 'accepted', score: 96 }));

export const errorResponse = `HTTP/1.1 429 Too Many Requests
Retry-After: 1
X-RateLimit-Limit: 10
X-RateLimit-Remaining: 0
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

/**
 * The secret the sample webhook requests below are signed with (their signatures are real: a reader
 * checks a receiver against them with its clock at their timestamp). Never an account's secret.
 */
export const EXAMPLE_WEBHOOK_SECRET = 'whsec_docs-example-only_not-a-real-secret_0000000';

/** A webhook request as the receiving endpoint gets it: the headers we send, then the JSON body. */
function webhookRequest(o: { event: string; signature: string; timestamp: number; signatureV2: string; delivery: string; userAgent?: string; body: string }): string {
  return [
    'POST /hooks/mailvet HTTP/1.1',
    'Content-Type: application/json',
    ...(o.userAgent ? [`User-Agent: ${o.userAgent}`] : []),
    `X-Mailvet-Event: ${o.event}`,
    `X-Mailvet-Signature: sha256=${o.signature}`,
    `X-Mailvet-Timestamp: ${o.timestamp}`,
    `X-Mailvet-Signature-V2: t=${o.timestamp},v1=${o.signatureV2}`,
    `X-Mailvet-Delivery: ${o.delivery}`,
    'X-Mailvet-Attempt: 1',
    '',
    o.body,
  ].join('\n');
}

export const webhookPayload = webhookRequest({
  event: 'job.completed',
  userAgent: 'Mailvet-Webhooks/1.0',
  signature: '6b5ebb6e89694ebb7cdee1a097a1fff6fab724232a1f9e3fbf3d0c7f04acc101',
  timestamp: 1795338882,
  signatureV2: '2221ab4e96bd9eb468ae4401f50445459e7defd374a4413b639a531d6509a7ce',
  delivery: sampleJob.job_id,
  body: json({ event: 'job.completed', ...sampleJob }),
});

/** schedule.run_completed (account webhooks): what changed since the schedule's previous run. */
export const scheduleRunPayload = webhookRequest({
  event: 'schedule.run_completed',
  signature: '561008d3624ff98ac26f9d97c51f2a0629ae983f0ebf4afc60fe875643d1b6cb',
  timestamp: 1795932042,
  signatureV2: '109a648f66f8537cefb1ea22fda8188bf798f03e2d8d35016ff8ef1d629d3af3',
  delivery: '3c9d0e5a-8b1f-4c2d-9e7a-6f5b4a3c2d1e',
  body: `{
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
}`,
});

/**
 * The `call` helper of the Node.js and browser examples (both have fetch); `headers` carries the key.
 * Over the rate limit it waits Retry-After and tries again (the page's Best Practices), up to 5 tries.
 */
const fetchCall = `/** Errors are application/problem+json: { status, code, detail }. A 429 is waited out (Retry-After) and sent again. */
async function call(method, path, body, extra = {}) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(BASE_URL + path, {
      method,
      headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}), ...extra },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json();
    if (res.status === 429 && attempt < 5) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('Retry-After') ?? 1)));
      continue;
    }
    if (!res.ok) throw new Error(\`Mailvet \${res.status} \${data.code}: \${data.detail}\`);
    return data;
  }
}
`;

const nodeHeader = `// Node.js 18+ (built-in fetch), as an ES module: node example.mjs
const BASE_URL = 'https://mailvet.io/v1';
const headers = { Authorization: \`Bearer \${process.env.MAILVET_API_KEY}\` };

${fetchCall}`;

/** What the browser examples hold in place of a real key and job id (the reader pastes theirs). */
export const BROWSER_PLACEHOLDERS = { key: 'mv_test_paste_your_key', jobId: 'paste-a-job-id' } as const;

/** The browser examples' start; `JOB_ID` only where the example is about one job. */
function browserHeader(needsJobId: boolean): string {
  return `// JavaScript in the browser (fetch): a <script type="module"> or the developer console.
// Anyone who can open the page can read a key written into it: use a test key (mv_test_…) here,
// and keep live keys on your server (see the Node.js, Python and PHP tabs).
const MAILVET_API_KEY = '${BROWSER_PLACEHOLDERS.key}';
${needsJobId ? `const JOB_ID = '${BROWSER_PLACEHOLDERS.jobId}'; // job_id from POST /v1/bulk\n` : ''}const BASE_URL = 'https://mailvet.io/v1';
const headers = { Authorization: \`Bearer \${MAILVET_API_KEY}\` };

${fetchCall}`;
}

/**
 * The browser version of a Node.js example that only calls the API: the same code under the browser
 * header, with the job id read from its constant. Node-only code (files, servers) has its own.
 */
function inTheBrowser(node: string): string {
  if (!node.startsWith(nodeHeader) || node.includes("from 'node:")) throw new Error('write this browser example out');
  const body = node.slice(nodeHeader.length).replaceAll('process.env.JOB_ID', 'JOB_ID');
  return browserHeader(body.includes('JOB_ID')) + body;
}

const pythonHeader = `# Python 3 with requests (pip install requests)
import os
import time
import requests

BASE_URL = "https://mailvet.io/v1"
session = requests.Session()
session.headers["Authorization"] = f"Bearer {os.environ['MAILVET_API_KEY']}"


def call(method, path, **kwargs):
    for attempt in range(1, 6):
        res = session.request(method, BASE_URL + path, timeout=30, **kwargs)
        if res.status_code != 429 or attempt == 5:
            break
        time.sleep(int(res.headers.get("Retry-After", "1")))  # over the rate limit: wait, then send again
    data = res.json()
    if not res.ok:  # errors are application/problem+json
        raise RuntimeError(f"Mailvet {res.status_code} {data['code']}: {data['detail']}")
    return data
`;

const phpHeader = `<?php
// PHP 8 with the cURL extension.
function mailvet(string $method, string $path, ?array $body = null, array $headers = []): array
{
    $headers[] = 'Authorization: Bearer ' . getenv('MAILVET_API_KEY');
    if ($body !== null) {
        $headers[] = 'Content-Type: application/json';
    }
    for ($attempt = 1; ; $attempt++) {
        $ch = curl_init('https://mailvet.io/v1' . $path);
        if ($body !== null) {
            curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($body));
        }
        $retryAfter = 1;
        curl_setopt_array($ch, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT => 30,
            CURLOPT_HEADERFUNCTION => function ($ch, string $line) use (&$retryAfter): int {
                if (stripos($line, 'Retry-After:') === 0) {
                    $retryAfter = max(1, (int) trim(substr($line, 12)));
                }
                return strlen($line);
            },
        ]);
        $data = json_decode(curl_exec($ch), true);
        $status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
        curl_close($ch);
        if ($status === 429 && $attempt < 5) { // over the rate limit: wait, then send again
            sleep($retryAfter);
            continue;
        }
        if ($status >= 400) { // errors are application/problem+json
            throw new RuntimeException("Mailvet $status {$data['code']}: {$data['detail']}");
        }
        return $data;
    }
}
`;

const HEADER: Record<Lang, string> = { node: nodeHeader, python: pythonHeader, php: phpHeader };

/** The code examples of a call: each language's header (its `call` helper), then `code` in that language. */
function inEachLanguage(code: (lang: Lang) => string): Pick<ApiExample, Lang> {
  const of = (lang: Lang) => `${HEADER[lang]}\n${code(lang)}`;
  return { node: of('node'), python: of('python'), php: of('php') };
}

/** Every example that calls the API runs in a browser too: written out, or from its Node.js version. */
function withBrowserVersion(e: ApiExample): ApiExample {
  return e.javascript !== undefined || e.operation === null ? e : { ...e, javascript: inTheBrowser(e.node) };
}

/** What the page says about an example, and its call (the operation and the cURL command come from it). */
interface About {
  id: string;
  title: string;
  description: string;
  call: CallSpec;
  response?: string;
}

function described({ id, title, description, call, response }: About): Omit<ApiExample, Lang> {
  return { id, operation: operationOf(call), title, description, curl: curlOf(call), ...(response ? { response } : {}) };
}

/** A call whose examples make the request and print one line (see `say`) about the answer, named `v`. */
function requestExample(about: About, v: string, line: string): ApiExample {
  return { ...described(about), ...inEachLanguage((lang) => `${callLine(lang, v, about.call)}\n${say(lang, v, line)}`) };
}

/** A list read page by page. */
function pagedExample(about: About, list: PagedList): ApiExample {
  return { ...described(about), ...inEachLanguage((lang) => pagedCode(lang, list)) };
}

const threeEmails = ['jane@acme-corp.com', 'info@example.org', 'bad@@example'];
const idempotent = { method: 'POST', path: '/bulk', body: { emails: threeEmails.slice(0, 2) }, headers: ['Idempotency-Key: newsletter-import-2026-11-23'] } as const;
const estimate = { method: 'POST', path: '/estimate', body: { emails: threeEmails } } as const;
const jobStatus = { method: 'GET', path: '/jobs/{JOB_ID}' } as const;
const csvUpload = { method: 'POST', path: '/bulk', form: 'file=@contacts.csv;type=text/csv' } as const;
const csvQuery = { result: 'invalid,risky', reason: 'mailbox_not_found,catch_all', format: 'csv' };
const csvDownload = {
  method: 'GET',
  path: '/jobs/{JOB_ID}/results',
  query: new URLSearchParams(csvQuery).toString().replaceAll('%2C', ','),
  output: 'to-review.csv',
} as const;

export const EXAMPLES: readonly ApiExample[] = [
  requestExample(
    {
      id: 'validate',
      title: 'Validate one address',
      description: 'The verdict in one call. Act on result; use reason and deliverability_score to decide on risky addresses.',
      call: { method: 'POST', path: '/validate', body: { email: 'jane.cooper@acme-corp.com' } },
      response: validateResponse,
    },
    'check',
    '{email}: {result} ({reason}, score {deliverability_score})',
  ),
  requestExample(
    {
      id: 'bulk-json',
      title: 'Start a bulk job (JSON)',
      description: 'Up to 10,000 addresses in one request; the job runs in the background. Keep job_id to follow it.',
      call: { method: 'POST', path: '/bulk', body: { emails: threeEmails } },
      response: json({ job_id: sampleJob.job_id, total_emails: 3, status: 'pending' }),
    },
    'job',
    'job {job_id}: {total_emails} addresses, {status}',
  ),
  {
    ...described({
      id: 'idempotency',
      title: 'Retry safely with Idempotency-Key',
      description:
        'Send the same Idempotency-Key with the same body again (after a timeout, say) and you get the original answer: the same job, no second charge, with the header Idempotent-Replayed: true. Keys are kept 24 hours.',
      call: idempotent,
    }),
    node: `${nodeHeader}
const body = ${literal('node', idempotent.body)};
const key = { 'Idempotency-Key': 'newsletter-import-2026-11-23' };
const first = await call('POST', '/bulk', body, key);
const retry = await call('POST', '/bulk', body, key); // e.g. after a network timeout
console.log(first.job_id === retry.job_id ? \`same job \${first.job_id}\` : 'different jobs');`,
    python: `${pythonHeader}
body = ${literal('python', idempotent.body)}
key = {"Idempotency-Key": "newsletter-import-2026-11-23"}
first = call("POST", "/bulk", json=body, headers=key)
retry = call("POST", "/bulk", json=body, headers=key)  # e.g. after a network timeout
print(f"same job {first['job_id']}" if first["job_id"] == retry["job_id"] else "different jobs")`,
    php: `${phpHeader}
$body = ${literal('php', idempotent.body)};
$key = ['Idempotency-Key: newsletter-import-2026-11-23'];
$first = mailvet('POST', '/bulk', $body, $key);
$retry = mailvet('POST', '/bulk', $body, $key); // e.g. after a network timeout
echo $first['job_id'] === $retry['job_id'] ? "same job {$first['job_id']}\\n" : "different jobs\\n";`,
  },
  {
    ...described({
      id: 'job-status',
      title: "Follow a job's progress",
      description: 'Poll until the job ends: completed, failed or cancelled (or pass webhook_url and let us call you).',
      call: jobStatus,
      response: json({ ...sampleJob, status: 'processing', processed_emails: 2, completed_at: null }),
    }),
    node: `${nodeHeader}
let job;
do {
  if (job) await new Promise((r) => setTimeout(r, 2000));
  job = await call('GET', ${pathArg('node', jobStatus.path)});
  ${say('node', 'job', '{status}: {processed_emails}/{total_emails}')}
} while (job.status === 'pending' || job.status === 'processing');`,
    python: `${pythonHeader}
while True:
    job = call("GET", ${pathArg('python', jobStatus.path)})
    ${say('python', 'job', '{status}: {processed_emails}/{total_emails}')}
    if job["status"] not in ("pending", "processing"):  # completed, failed or cancelled
        break
    time.sleep(2)`,
    php: `${phpHeader}
do {
    $job = mailvet('GET', ${pathArg('php', jobStatus.path)});
    ${say('php', 'job', '{status}: {processed_emails}/{total_emails}')}
    $running = in_array($job['status'], ['pending', 'processing'], true);
    if ($running) sleep(2);
} while ($running);`,
  },
  pagedExample(
    {
      id: 'job-results',
      title: "Page through a job's results",
      description: 'Ask for pages of limit results and pass next_cursor back as cursor until it is null.',
      call: { method: 'GET', path: '/jobs/{JOB_ID}/results', query: 'limit=2' },
      response: json({
        job_id: sampleJob.job_id,
        status: 'completed',
        total_emails: 3,
        results: [
          sampleResult('jane@acme-corp.com', { result: 'valid', reason: 'accepted', score: 95 }),
          sampleResult('info@example.org', { result: 'risky', reason: 'catch_all', score: 55, role: true }),
        ],
        next_cursor: '48213',
      }),
    },
    { path: '/jobs/{JOB_ID}/results', items: 'results', item: 'r', line: '{email}: {result} ({reason})' },
  ),
  {
    ...described({
      id: 'bulk-csv',
      title: 'Start a bulk job from a CSV file',
      description:
        'Upload the file as multipart/form-data in the field "file" (the dashboard\'s rules: up to 10 MB, an email column or the first column, 10,000 unique addresses). Add a webhook_url field to be called when it ends.',
      call: csvUpload,
    }),
    javascript: `${browserHeader(false)}
// The file the user picked in an <input type="file" accept=".csv"> (or dropped on the page).
const file = document.querySelector('input[type=file]').files[0];
const form = new FormData(); // fetch sets the multipart Content-Type and boundary
form.append('file', file, file.name);
const res = await fetch(BASE_URL + '/bulk', { method: 'POST', headers, body: form });
const job = await res.json();
if (!res.ok) throw new Error(\`Mailvet \${res.status} \${job.code}: \${job.detail}\`);
${say('node', 'job', 'job {job_id}: {total_emails} addresses, {status}')}`,
    node: `${nodeHeader}
import fs from 'node:fs';

const form = new FormData(); // fetch sets the multipart Content-Type and boundary
form.append('file', new Blob([fs.readFileSync('contacts.csv')], { type: 'text/csv' }), 'contacts.csv');
const res = await fetch(BASE_URL + '/bulk', { method: 'POST', headers, body: form });
const job = await res.json();
if (!res.ok) throw new Error(\`Mailvet \${res.status} \${job.code}: \${job.detail}\`);
${say('node', 'job', 'job {job_id}: {total_emails} addresses, {status}')}`,
    python: `${pythonHeader}
with open("contacts.csv", "rb") as f:  # requests builds the multipart body
    job = call("POST", "/bulk", files={"file": ("contacts.csv", f.read(), "text/csv")})
${say('python', 'job', 'job {job_id}: {total_emails} addresses, {status}')}`,
    php: `<?php
// PHP 8 with the cURL extension: an array with a CURLFile is sent as multipart/form-data.
$ch = curl_init('https://mailvet.io/v1/bulk');
${phpExchange({
  options: [
    'CURLOPT_POST => true',
    "CURLOPT_HTTPHEADER => ['Authorization: Bearer ' . getenv('MAILVET_API_KEY')]",
    "CURLOPT_POSTFIELDS => ['file' => new CURLFile('contacts.csv', 'text/csv', 'contacts.csv')]",
  ],
  timeout: 60,
  result: 'job',
})}
${say('php', 'job', 'job {job_id}: {total_emails} addresses, {status}')}`,
  },
  {
    ...described({
      id: 'estimate',
      title: 'Estimate a list before validating it (free)',
      description:
        "Send a sample of up to 100 addresses: syntax and DNS/MX only, no SMTP, nothing stored, no credit used. You get each address's outcome and a predicted bounce rate (null when nothing could be decided).",
      call: estimate,
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
    }),
    node: `${nodeHeader}
${callLine('node', 'est', estimate)}
for (const r of est.results) ${say('node', 'r', '{email}: {outcome} ({reason})')}
const rate = est.predicted_bounce_rate === null ? 'unknown' : \`\${(est.predicted_bounce_rate * 100).toFixed(1)}%\`;
console.log(\`\${est.checked} checked: \${est.deliverable_domains} deliverable domains, \${est.undeliverable} undeliverable, \${est.undecided} undecided; predicted bounce rate \${rate}\`);`,
    python: `${pythonHeader}
${callLine('python', 'est', estimate)}
for r in est["results"]:
    ${say('python', 'r', '{email}: {outcome} ({reason})')}
rate = "unknown" if est["predicted_bounce_rate"] is None else f"{est['predicted_bounce_rate'] * 100:.1f}%"
print(f"{est['checked']} checked: {est['deliverable_domains']} deliverable domains, {est['undeliverable']} undeliverable, {est['undecided']} undecided; predicted bounce rate {rate}")`,
    php: `${phpHeader}
${callLine('php', 'est', estimate)}
foreach ($est['results'] as $r) ${say('php', 'r', '{email}: {outcome} ({reason})')}
$rate = $est['predicted_bounce_rate'] === null ? 'unknown' : sprintf('%.1f%%', $est['predicted_bounce_rate'] * 100);
echo "{$est['checked']} checked: {$est['deliverable_domains']} deliverable domains, {$est['undeliverable']} undeliverable, {$est['undecided']} undecided; predicted bounce rate $rate\\n";`,
  },
  pagedExample(
    {
      id: 'jobs-list',
      title: 'List your jobs',
      description: 'Newest first. Ask for pages of limit jobs (up to 100) and pass next_cursor back as cursor until it is null.',
      call: { method: 'GET', path: '/jobs', query: 'limit=2' },
      response: json({
        jobs: [
          sampleJob,
          {
            job_id: '1e2d3c4b-5a6f-4e7d-8c9b-0a1f2e3d4c5b',
            status: 'cancelled',
            total_emails: 1200,
            processed_emails: 418,
            created_at: '2026-11-21T16:02:11.004Z',
            completed_at: '2026-11-21T16:03:09.220Z',
            test: false,
          },
        ],
        next_cursor: 'eyJjIjoiMjAyNi0xMS0yMVQxNjowMjoxMS4wMDRaIn0',
      }),
    },
    { path: '/jobs', items: 'jobs', item: 'j', line: '{job_id} {status}: {processed_emails}/{total_emails}' },
  ),
  {
    ...described({
      id: 'job-results-csv',
      title: 'Download filtered results as CSV',
      description:
        "Filter by result (valid, invalid, risky) and reason (comma-separated), and ask for format=csv: the result fields as columns, spreadsheet formulas neutralised. With limit, the next page's cursor is in the X-Next-Cursor header.",
      call: csvDownload,
    }),
    javascript: `${browserHeader(true)}
const qs = new URLSearchParams(${literal('node', csvQuery)});
const res = await fetch(\`\${BASE_URL}/jobs/\${JOB_ID}/results?\${qs}\`, { headers });
if (!res.ok) {
  const err = await res.json();
  throw new Error(\`Mailvet \${res.status} \${err.code}: \${err.detail}\`);
}
const csv = await res.text();
// Save it: a download link to the text, clicked.
const link = document.createElement('a');
link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
link.download = 'to-review.csv';
link.click();
console.log(\`to-review.csv: \${csv.trim().split('\\r\\n').length - 1} addresses\`);`,
    node: `${nodeHeader}
import fs from 'node:fs';

const qs = new URLSearchParams(${literal('node', csvQuery)});
const res = await fetch(\`\${BASE_URL}/jobs/\${process.env.JOB_ID}/results?\${qs}\`, { headers });
if (!res.ok) {
  const err = await res.json();
  throw new Error(\`Mailvet \${res.status} \${err.code}: \${err.detail}\`);
}
const csv = await res.text();
fs.writeFileSync('to-review.csv', csv);
console.log(\`to-review.csv: \${csv.trim().split('\\r\\n').length - 1} addresses\`);`,
    python: `${pythonHeader}
params = ${literal('python', csvQuery)}
res = session.get(f"{BASE_URL}/jobs/{os.environ['JOB_ID']}/results", params=params, timeout=60)
if not res.ok:  # errors are application/problem+json
    raise RuntimeError(f"Mailvet {res.status_code} {res.json()['code']}: {res.json()['detail']}")
with open("to-review.csv", "w", newline="", encoding="utf-8") as f:
    f.write(res.text)
print(f"to-review.csv: {len(res.text.strip().splitlines()) - 1} addresses")`,
    php: `<?php
// PHP 8 with the cURL extension.
$qs = http_build_query(${literal('php', csvQuery)});
$ch = curl_init('https://mailvet.io/v1/jobs/' . getenv('JOB_ID') . '/results?' . $qs);
${phpExchange({ options: ["CURLOPT_HTTPHEADER => ['Authorization: Bearer ' . getenv('MAILVET_API_KEY')]"], timeout: 60, result: 'csv', raw: true })}
file_put_contents('to-review.csv', $csv);
echo 'to-review.csv: ' . (count(explode("\\r\\n", trim($csv))) - 1) . " addresses\\n";`,
  },
  requestExample(
    {
      id: 'job-cancel',
      title: 'Cancel a job',
      description:
        'Stops a pending or processing job: nothing more is checked or charged, and the results done so far are kept. Cancelling again gives the same answer; a job that has already completed or failed answers 409 CONFLICT.',
      call: { method: 'POST', path: '/jobs/{JOB_ID}/cancel' },
      response: json({
        job: { ...sampleJob, status: 'cancelled', total_emails: 1200, processed_emails: 418 },
        processed_emails: 418,
        unprocessed_emails: 782,
        credits_charged: 418,
        credits_not_charged: 782,
      }),
    },
    'out',
    'job {job.job_id} {job.status}: {processed_emails} results kept, {unprocessed_emails} never checked ({credits_not_charged} credits not charged)',
  ),
  requestExample(
    {
      id: 'account',
      title: 'Check your plan, credits and key',
      description: 'The account behind the key: plan, credit balance, and the key itself (test or live, scopes, rate limit).',
      call: { method: 'GET', path: '/account' },
    },
    'account',
    '{plan}: {credits_balance} credits, key {key.key_prefix} ({key.scopes|join})',
  ),
  {
    id: 'webhook-verify',
    operation: null,
    title: 'Receive a webhook and verify its signature',
    description:
      'Start a job with webhook_url pointing here. X-Mailvet-Signature-V2 is t=<unix seconds>,v1=<hex>: compute HMAC-SHA256 of "<t>.<X-Mailvet-Delivery>.<exact raw body>" with your signing secret (API Keys page), compare it in constant time with v1, and refuse a t more than 5 minutes from your clock (a replayed request) before trusting the JSON.',
    node: `// Node.js 18+, no dependencies: node receiver.mjs
import crypto from 'node:crypto';
import http from 'node:http';

const SECRET = process.env.MAILVET_WEBHOOK_SECRET;
const TOLERANCE_SECONDS = 5 * 60; // older (or newer) than this: a replay, refused

// X-Mailvet-Signature-V2: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<X-Mailvet-Delivery>.<raw body>">
function verified(rawBody, delivery, header) {
  let t = null;
  const signatures = [];
  for (const part of String(header ?? '').split(',')) {
    const [key, value = ''] = part.trim().split('=');
    if (key === 't' && /^[0-9]{1,12}$/.test(value)) t = Number(value);
    if (key === 'v1') signatures.push(Buffer.from(value));
  }
  if (t === null || !delivery || Math.abs(Date.now() / 1000 - t) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(crypto.createHmac('sha256', SECRET).update(t + '.' + delivery + '.').update(rawBody).digest('hex'));
  return signatures.some((s) => s.length === expected.length && crypto.timingSafeEqual(s, expected));
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks); // the exact bytes: verify before parsing
      if (!verified(raw, req.headers['x-mailvet-delivery'], req.headers['x-mailvet-signature-v2'])) {
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
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ["MAILVET_WEBHOOK_SECRET"].encode()
TOLERANCE_SECONDS = 5 * 60  # older (or newer) than this: a replay, refused


def verified(raw, delivery, header):
    # X-Mailvet-Signature-V2: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<X-Mailvet-Delivery>.<raw body>">
    t, signatures = None, []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isascii() and value.isdigit() and len(value) <= 12:
            t = int(value)
        elif key == "v1":
            signatures.append(value.encode())  # compare bytes: str.compare_digest refuses non-ASCII
    if t is None or not delivery or abs(time.time() - t) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(SECRET, f"{t}.{delivery}.".encode() + raw, hashlib.sha256).hexdigest().encode()
    return any(hmac.compare_digest(expected, s) for s in signatures)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # verify before parsing
        if not verified(raw, self.headers.get("X-Mailvet-Delivery", ""), self.headers.get("X-Mailvet-Signature-V2", "")):
            self.send_response(401)
            self.end_headers()
            return
        event = json.loads(raw)
        print(f"verified {event['event']} for job {event['job_id']}", flush=True)
        self.send_response(200)
        self.end_headers()


HTTPServer(("", int(os.environ.get("PORT", "3000"))), Receiver).serve_forever()`,
    php: `<?php
// PHP 8: the webhook endpoint (e.g. public/hooks/mailvet.php).
const TOLERANCE_SECONDS = 5 * 60; // older (or newer) than this: a replay, refused

// X-Mailvet-Signature-V2: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<X-Mailvet-Delivery>.<raw body>">
$raw = file_get_contents('php://input'); // the exact bytes: verify before parsing
$delivery = $_SERVER['HTTP_X_MAILVET_DELIVERY'] ?? '';
$t = null;
$signatures = [];
foreach (explode(',', $_SERVER['HTTP_X_MAILVET_SIGNATURE_V2'] ?? '') as $part) {
    [$key, $value] = array_pad(explode('=', trim($part), 2), 2, '');
    if ($key === 't' && preg_match('/^[0-9]{1,12}$/', $value)) $t = (int) $value;
    if ($key === 'v1') $signatures[] = $value;
}
$ok = false;
if ($t !== null && $delivery !== '' && abs(time() - $t) <= TOLERANCE_SECONDS) {
    $expected = hash_hmac('sha256', $t . '.' . $delivery . '.' . $raw, getenv('MAILVET_WEBHOOK_SECRET'));
    foreach ($signatures as $signature) $ok = $ok || hash_equals($expected, $signature);
}
if (!$ok) {
    http_response_code(401);
    exit('bad signature');
}
$event = json_decode($raw, true);
error_log("verified {$event['event']} for job {$event['job_id']}");
http_response_code(200);`,
  },
].map(withBrowserVersion);
