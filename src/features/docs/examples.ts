// Code samples for the documentation. `BASE` is replaced with the API origin when rendered.

export const curlValidate = `curl -X POST BASE/v1/validate \\
  -H "Authorization: Bearer $MAILVET_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"email": "jane.cooper@acme-corp.com"}'`;

export const validateResponse = `{
  "email": "jane.cooper@acme-corp.com",
  "result": "valid",
  "reason": "accepted",
  "deliverability_score": 96,
  "syntax_valid": true,
  "mx_valid": true,
  "smtp_valid": true,
  "disposable_provider": false,
  "role_detected": false
}`;

export const bulkRequest = `curl -X POST BASE/v1/bulk \\
  -H "Authorization: Bearer $MAILVET_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "emails": ["jane@acme-corp.com", "info@example.org", "bad@@example"],
    "webhook_url": "https://yourapp.com/hooks/mailvet"
  }'`;

export const bulkResponse = `{
  "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
  "total_emails": 3,
  "status": "pending"
}`;

export const jobResponse = `{
  "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
  "status": "processing",
  "total_emails": 3,
  "processed_emails": 2,
  "created_at": "2026-11-22T09:14:03.512Z",
  "completed_at": null
}`;

export const jobResultsResponse = `{
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
      "role_detected": false
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
      "role_detected": true
    }
  ],
  "next_cursor": null
}`;

export const errorResponse = `HTTP/1.1 429 Too Many Requests
Retry-After: 1
Content-Type: application/json

{
  "code": "RATE_LIMITED",
  "message": "Rate limit exceeded. Retry after 1 second."
}`;

export const webhookPayload = `POST /hooks/mailvet HTTP/1.1
Content-Type: application/json
X-Mailvet-Signature: sha256=5d41402abc4b2a76b9719d911017c592e3b0c44298fc1c149afbf4c8996fb924

{
  "event": "job.completed",
  "job_id": "6f1c2b8e-4d0a-4f5e-9a51-2f0d7c3b9e11",
  "status": "completed",
  "total_emails": 3,
  "processed_emails": 3,
  "created_at": "2026-11-22T09:14:03.512Z",
  "completed_at": "2026-11-22T09:14:41.907Z"
}`;

export const javascriptExample = `// JavaScript (fetch) — run this on your server or in an edge function.
// Never ship your API key to the browser.
const API_KEY = process.env.MAILVET_API_KEY;

export async function validateEmail(email) {
  const res = await fetch('BASE/v1/validate', {
    method: 'POST',
    headers: {
      Authorization: \`Bearer \${API_KEY}\`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ email }),
  });

  if (res.status === 429) {
    const wait = Number(res.headers.get('Retry-After') ?? 1);
    await new Promise((r) => setTimeout(r, wait * 1000));
    return validateEmail(email);
  }
  if (!res.ok) {
    const err = await res.json();
    throw new Error(\`Mailvet \${res.status}: \${err.message}\`);
  }
  return res.json(); // { email, result, reason, deliverability_score, ... }
}

const check = await validateEmail('jane.cooper@acme-corp.com');
if (check.result === 'invalid') {
  console.log('Please double-check your email address.');
}`;

export const pythonExample = `# Python 3 with requests: pip install requests
import os
import time
import requests

API_KEY = os.environ["MAILVET_API_KEY"]
BASE_URL = "BASE/v1"
session = requests.Session()
session.headers.update({"Authorization": f"Bearer {API_KEY}"})


def validate_email(email: str) -> dict:
    while True:
        res = session.post(f"{BASE_URL}/validate", json={"email": email}, timeout=30)
        if res.status_code == 429:
            time.sleep(int(res.headers.get("Retry-After", "1")))
            continue
        res.raise_for_status()
        return res.json()


def validate_list(emails: list[str]) -> list[dict]:
    job = session.post(f"{BASE_URL}/bulk", json={"emails": emails}, timeout=30).json()
    while True:
        status = session.get(f"{BASE_URL}/jobs/{job['job_id']}", timeout=30).json()
        if status["status"] in ("completed", "failed"):
            break
        time.sleep(5)
    return session.get(f"{BASE_URL}/jobs/{job['job_id']}/results", timeout=30).json()["results"]


result = validate_email("jane.cooper@acme-corp.com")
print(result["result"], result["deliverability_score"])`;

export const phpExample = `<?php
// PHP 8 with the cURL extension.
function mailvet_validate(string $email): array
{
    $ch = curl_init('BASE/v1/validate');
    curl_setopt_array($ch, [
        CURLOPT_POST => true,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_HTTPHEADER => [
            'Authorization: Bearer ' . getenv('MAILVET_API_KEY'),
            'Content-Type: application/json',
        ],
        CURLOPT_POSTFIELDS => json_encode(['email' => $email]),
        CURLOPT_TIMEOUT => 30,
    ]);
    $body = curl_exec($ch);
    $status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
    curl_close($ch);

    $data = json_decode($body, true);
    if ($status !== 200) {
        throw new RuntimeException("Mailvet error $status: " . ($data['message'] ?? 'unknown'));
    }
    return $data;
}

$result = mailvet_validate('jane.cooper@acme-corp.com');
if ($result['result'] === 'valid') {
    echo "Deliverable ({$result['deliverability_score']}%)\\n";
}`;

export const nodeExample = `// Node.js 18+ (Express): start a bulk job and verify the signed webhook.
import crypto from 'node:crypto';
import express from 'express';

const API_KEY = process.env.MAILVET_API_KEY;
const WEBHOOK_SECRET = process.env.MAILVET_WEBHOOK_SECRET;

export async function startBulkJob(emails) {
  const res = await fetch('BASE/v1/bulk', {
    method: 'POST',
    headers: { Authorization: \`Bearer \${API_KEY}\`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ emails, webhook_url: 'https://yourapp.com/hooks/mailvet' }),
  });
  if (!res.ok) throw new Error(\`Mailvet \${res.status}\`);
  return res.json(); // { job_id, total_emails, status: 'pending' }
}

const app = express();

// Use the raw body: the signature is computed over the exact bytes we sent.
app.post('/hooks/mailvet', express.raw({ type: 'application/json' }), async (req, res) => {
  const expected = 'sha256=' + crypto.createHmac('sha256', WEBHOOK_SECRET).update(req.body).digest('hex');
  const received = req.get('X-Mailvet-Signature') ?? '';
  const valid =
    received.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(received), Buffer.from(expected));
  if (!valid) return res.status(401).send('bad signature');

  const event = JSON.parse(req.body.toString('utf8'));
  if (event.event === 'job.completed') {
    const results = await fetch(\`BASE/v1/jobs/\${event.job_id}/results\`, {
      headers: { Authorization: \`Bearer \${API_KEY}\` },
    }).then((r) => r.json());
    console.log(\`Job \${event.job_id}: \${results.results.length} results\`);
  }
  res.sendStatus(200);
});

app.listen(3000);`;
