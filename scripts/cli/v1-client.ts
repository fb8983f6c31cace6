// A small fetch-based client for the public REST API (/v1), used by `mailvet mcp` (and usable by any
// Node script): Bearer key, JSON in and out, and problem+json errors turned into V1Error with the
// app's code (and the scope a SCOPE_REQUIRED names). No retries: callers decide.
import type { PublicResult } from '../../server/contracts/public-api';
import type { JobStatusValue } from '../../server/contracts/jobs';

export interface V1ClientOptions {
  /** The Mailvet base URL (e.g. https://app.mailvet.dev); /v1 is appended. */
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  userAgent?: string;
}

export class V1Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> | null,
  ) {
    super(message);
    this.name = 'V1Error';
  }
}

export interface BulkStarted {
  job_id: string;
  total_emails: number;
  status: 'pending';
}

export interface JobStatus {
  job_id: string;
  /** Every status /v1 answers (server/contracts/jobs.ts); completed, failed and cancelled are final. */
  status: JobStatusValue;
  total_emails: number;
  processed_emails: number;
  created_at: string;
  completed_at: string | null;
  [more: string]: unknown;
}

export interface ResultsPage {
  job_id: string;
  status: JobStatus['status'];
  total_emails: number;
  results: PublicResult[];
  next_cursor: string | null;
  [more: string]: unknown;
}

export type V1Client = ReturnType<typeof createV1Client>;

export function createV1Client(o: V1ClientOptions) {
  const base = `${o.baseUrl.replace(/\/+$/, '')}/v1`;
  const doFetch = o.fetch ?? fetch;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, query?: Record<string, string | number | undefined>): Promise<T> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers: {
          authorization: `Bearer ${o.apiKey}`,
          accept: 'application/json',
          ...(o.userAgent ? { 'user-agent': o.userAgent } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs ?? 90_000),
      });
    } catch (err) {
      throw new V1Error(0, 'NETWORK_ERROR', `Could not reach ${base}: ${err instanceof Error ? err.message : String(err)}`, null);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: reported below
    }
    if (!res.ok) {
      const problem = (json && typeof json === 'object' ? json : null) as Record<string, unknown> | null;
      const code = typeof problem?.code === 'string' ? problem.code : `HTTP_${res.status}`;
      const message = typeof problem?.message === 'string' ? problem.message : typeof problem?.detail === 'string' ? problem.detail : text.slice(0, 300) || res.statusText;
      throw new V1Error(res.status, code, message, problem);
    }
    if (json === null) throw new V1Error(res.status, 'BAD_RESPONSE', `Expected JSON from ${method} ${url.pathname}`, null);
    return json as T;
  }

  return {
    validate: (email: string) => call<PublicResult>('POST', '/validate', { email }),
    startBulk: (input: { emails: string[]; webhook_url?: string }) => call<BulkStarted>('POST', '/bulk', input),
    job: (id: string) => call<JobStatus>('GET', `/jobs/${encodeURIComponent(id)}`),
    results: (id: string, page: { limit?: number; cursor?: string } = {}) => call<ResultsPage>('GET', `/jobs/${encodeURIComponent(id)}/results`, undefined, page),
    account: () => call<Record<string, unknown>>('GET', '/account'),
  };
}
