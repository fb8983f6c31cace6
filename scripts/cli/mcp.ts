// `mailvet mcp`: a Model Context Protocol server over stdio (the official @modelcontextprotocol/sdk)
// that lets an AI assistant validate addresses and run bulk jobs through the public REST API.
// It is only a /v1 client: MAILVET_URL says where, MAILVET_API_KEY authenticates (a test key
// mv_test_… answers from the sandbox), and the key's scopes and rate limit apply as to any caller.
// Stdout carries the protocol only; diagnostics go to stderr.
import { McpServer, type ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { FINISHED_JOB_STATUSES, jobStatusSchema, MAX_EMAILS_PER_FILE } from '../../server/contracts/jobs';
import { createV1Client, V1Error, type V1Client } from './v1-client';

export const MCP_SERVER_NAME = 'mailvet';
/** Results per page an assistant gets by default (a whole 10,000-row job would flood its context). */
export const MCP_RESULTS_DEFAULT = 100;
export const MCP_RESULTS_MAX = 1_000;

export interface McpEnv {
  url: string;
  apiKey: string;
}

/** MAILVET_URL and MAILVET_API_KEY, or the message saying what is missing. */
export function readMcpEnv(env: NodeJS.ProcessEnv): { ok: true; value: McpEnv } | { ok: false; message: string } {
  const apiKey = env.MAILVET_API_KEY?.trim() ?? '';
  const url = env.MAILVET_URL?.trim() ?? '';
  const missing = [!url && 'MAILVET_URL', !apiKey && 'MAILVET_API_KEY'].filter(Boolean);
  if (missing.length > 0) return { ok: false, message: `mailvet mcp: set ${missing.join(' and ')} (your Mailvet address, e.g. https://app.mailvet.dev, and an API key from the API Keys page).` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: `mailvet mcp: MAILVET_URL is not a URL: ${url}` };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, message: 'mailvet mcp: MAILVET_URL must be an http(s) URL.' };
  return { ok: true, value: { url: parsed.toString(), apiKey } };
}

function ok(data: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data as Record<string, unknown> };
}

/** API errors become tool errors the assistant can read and act on (never a protocol error). */
async function run(fn: () => Promise<object>): Promise<CallToolResult> {
  try {
    return ok(await fn());
  } catch (err) {
    if (err instanceof V1Error) {
      const scope = typeof err.body?.scope === 'string' ? ` (scope needed: ${err.body.scope})` : '';
      return { isError: true, content: [{ type: 'text', text: `${err.code}${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}${scope}` }] };
    }
    return { isError: true, content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }] };
  }
}

/** "a, b or c": the /v1 job statuses as an assistant reads them. */
const either = (xs: readonly string[]) => `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;
/** The statuses a job ends in: polling stops at any of them (a cancelled job never completes). */
const FINAL = either(FINISHED_JOB_STATUSES);

/** What an assistant reads about each tool: title, whether it only reads, and the description. */
const TOOLS = {
  validate_email: { title: 'Validate an email address', readOnly: false, description: 'Checks one address in real time (syntax, DNS, MX, SMTP mailbox, disposable and role detection) and returns result (valid, invalid or risky), reason, deliverability_score (0-100) and flags. Uses one credit unless the result is undecided or the key is a test key.' },
  start_bulk_job: { title: 'Start a bulk validation job', readOnly: false, description: `Queues up to ${MAX_EMAILS_PER_FILE.toLocaleString('en-US')} addresses and returns a job_id at once. Poll get_job_status until status is ${FINAL} (final: stop polling), then read get_job_results. One credit per unique address.` },
  get_job_status: { title: 'Get a bulk job status', readOnly: true, description: `Status (${either(jobStatusSchema.options)}; ${FINAL} are final and never change) and progress (processed_emails of total_emails) of a bulk job.` },
  get_job_results: { title: 'Get bulk job results', readOnly: true, description: `One page of a finished job's results (default ${MCP_RESULTS_DEFAULT}, at most ${MCP_RESULTS_MAX} per page). Pass next_cursor as cursor for the next page; it is null on the last page.` },
} as const;

export function createMailvetMcpServer(client: V1Client, version = '1.0.0'): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version });
  /** Every tool is one /v1 call on the open network; its answer is the call's JSON or a tool error. */
  const tool = <Args extends ZodRawShapeCompat>(name: keyof typeof TOOLS, inputSchema: Args, call: (args: ShapeOutput<Args>) => Promise<object>) => {
    const { title, description, readOnly } = TOOLS[name];
    // The SDK's callback type is conditional on the shape; TypeScript cannot resolve it for a generic one.
    const callback = ((args: ShapeOutput<Args>) => run(() => call(args))) as unknown as ToolCallback<Args>;
    server.registerTool(name, { title, description, inputSchema, annotations: { readOnlyHint: readOnly, openWorldHint: true } }, callback);
  };

  tool('validate_email', { email: z.string().min(1).max(1024).describe('The address to check') }, ({ email }) => client.validate(email));
  tool(
    'start_bulk_job',
    {
      emails: z.array(z.string().max(1024)).min(1).max(MAX_EMAILS_PER_FILE).describe('The addresses to validate'),
      webhook_url: z.string().url().optional().describe('Optional HTTPS URL to notify when the job ends'),
    },
    ({ emails, webhook_url }) => client.startBulk(webhook_url ? { emails, webhook_url } : { emails }),
  );
  tool('get_job_status', { job_id: z.string().min(1).max(100).describe('The job_id start_bulk_job returned') }, ({ job_id }) => client.job(job_id));
  tool(
    'get_job_results',
    {
      job_id: z.string().min(1).max(100),
      limit: z.number().int().min(1).max(MCP_RESULTS_MAX).optional().describe(`Results per page (default ${MCP_RESULTS_DEFAULT})`),
      cursor: z.string().max(200).optional().describe('next_cursor from the previous page'),
    },
    ({ job_id, limit, cursor }) => client.results(job_id, { limit: limit ?? MCP_RESULTS_DEFAULT, cursor }),
  );
  return server;
}

export const MCP_USAGE = `Usage: mailvet mcp

Serve the Model Context Protocol over stdio for AI assistants (tools validate_email, start_bulk_job,
get_job_status, get_job_results), as a client of your Mailvet's /v1 API. Stdout carries the protocol.

Environment (both required):
  MAILVET_URL      your Mailvet address, e.g. https://app.mailvet.dev
  MAILVET_API_KEY  an API key from the API Keys page (a test key mv_test_… answers from the sandbox)
`;

/** The `mailvet mcp` command: serves until stdin closes. Returns the exit code when it cannot start (or 0 after --help). */
export async function runMcpCommand(env: NodeJS.ProcessEnv = process.env, args: readonly string[] = []): Promise<number | null> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(MCP_USAGE);
    return 0;
  }
  // It takes no flag or argument: a mistyped one (`--url …`) was ignored and the server started anyway.
  if (args.length > 0) {
    process.stderr.write(`mailvet mcp: unexpected ${args[0]!.startsWith('-') ? 'option' : 'argument'} '${args[0]}' (it takes none: MAILVET_URL and MAILVET_API_KEY configure it; --help)\n`);
    return 2;
  }
  const cfg = readMcpEnv(env);
  if (!cfg.ok) {
    process.stderr.write(`${cfg.message}\n`);
    return 2;
  }
  const client = createV1Client({ baseUrl: cfg.value.url, apiKey: cfg.value.apiKey, userAgent: 'mailvet-mcp/1.0' });
  const server = createMailvetMcpServer(client);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`mailvet mcp: serving ${cfg.value.url} over stdio\n`);
  return null;
}
