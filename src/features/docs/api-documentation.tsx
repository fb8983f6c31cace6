import { AlertTriangle, KeyRound, Rocket, ShieldCheck, Timer, Webhook } from 'lucide-react';
import { FAIR_CHARGING_RULE } from '../../../server/contracts/charging';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PLANS, SUPPORT_EMAIL, formatPlanPrice } from '../../../server/contracts/plans';
import { reasonSchema } from '../../../probe/contract';
import { Badge } from '../../components/ui/badge';
import { Tabs, TabsList, TabsPanel, TabsPanels, TabsTrigger } from '../../components/ui/tabs';
import { paths } from '../../config/paths';
import { cn } from '../../lib/cn';
import { CodeBlock, InlineCode } from './code-block';
import * as ex from './examples';

/** The API origin shown in samples: this site's origin (the API is served under /v1 on the same host). */
function apiBase(): string {
  return typeof window === 'undefined' ? 'https://mailvet.io' : window.location.origin;
}

function withBase(code: string) {
  return code.replaceAll('BASE', apiBase());
}

const firstApiPlan = PLANS.find((p) => p.apiKeys);

function H2({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <h2 id={id} className="scroll-mt-24 text-xl font-semibold tracking-tight text-slate-900">
      {children}
    </h2>
  );
}

function H3({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <h3 id={id} className="scroll-mt-24 text-base font-semibold text-slate-900">
      {children}
    </h3>
  );
}

function P({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={cn('text-sm leading-7 text-slate-600', className)}>{children}</p>;
}

function Callout({ icon: Icon = AlertTriangle, tone = 'info', children }: { icon?: typeof AlertTriangle; tone?: 'info' | 'warning'; children: ReactNode }) {
  return (
    <div
      className={cn(
        'flex gap-3 rounded-xl border p-4 text-sm leading-6',
        tone === 'warning' ? 'border-amber-200 bg-amber-50 text-amber-900' : 'border-brand-100 bg-brand-50/60 text-slate-700',
      )}
    >
      <Icon className={cn('mt-0.5 size-4 shrink-0', tone === 'warning' ? 'text-amber-600' : 'text-brand-600')} aria-hidden="true" />
      <div>{children}</div>
    </div>
  );
}

function Method({ method }: { method: 'GET' | 'POST' }) {
  return (
    <span
      className={cn(
        'rounded-md px-2 py-0.5 font-mono text-xs font-bold',
        method === 'POST' ? 'bg-emerald-100 text-emerald-800' : 'bg-sky-100 text-sky-800',
      )}
    >
      {method}
    </span>
  );
}

interface FieldRow {
  name: string;
  type: string;
  description: ReactNode;
}

function FieldTable({ rows, caption }: { rows: readonly FieldRow[]; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-semibold">
              Field
            </th>
            <th scope="col" className="px-4 py-2.5 font-semibold">
              Type
            </th>
            <th scope="col" className="px-4 py-2.5 font-semibold">
              Description
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.name} className="align-top">
              <td className="px-4 py-3 font-mono text-[13px] whitespace-nowrap text-slate-900">{r.name}</td>
              <td className="px-4 py-3 font-mono text-xs whitespace-nowrap text-slate-500">{r.type}</td>
              <td className="px-4 py-3 leading-6 text-slate-600">{r.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Endpoint({ id, method, path, title, children }: { id: string; method: 'GET' | 'POST'; path: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center gap-3">
        <Method method={method} />
        <code className="font-mono text-sm font-semibold text-slate-900">{path}</code>
      </div>
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {title}
      </h3>
      {children}
    </section>
  );
}

const resultFields: readonly FieldRow[] = [
  { name: 'email', type: 'string', description: 'The address you sent, exactly as received.' },
  {
    name: 'result',
    type: 'string',
    description: (
      <>
        <InlineCode>valid</InlineCode> (the mailbox accepts mail), <InlineCode>invalid</InlineCode> (it will bounce) or{' '}
        <InlineCode>risky</InlineCode> (catch-all, disposable, greylisted or not conclusively verifiable).
      </>
    ),
  },
  { name: 'reason', type: 'string', description: 'Machine-readable cause of the result; see the reason codes below.' },
  { name: 'deliverability_score', type: 'integer', description: '0–100. Weighs SMTP status, domain age, MX reputation and blacklists.' },
  { name: 'syntax_valid', type: 'boolean', description: 'The address is a well-formed RFC 5321 mailbox.' },
  { name: 'mx_valid', type: 'boolean', description: 'The domain publishes usable mail exchangers.' },
  {
    name: 'smtp_valid',
    type: 'boolean',
    description: "The receiving server accepted the recipient in an SMTP handshake. Always false on plans without the SMTP check.",
  },
  { name: 'disposable_provider', type: 'boolean', description: 'The domain belongs to a disposable / temporary inbox provider.' },
  { name: 'role_detected', type: 'boolean', description: 'The local part is a role address such as admin@, info@ or support@.' },
];

const reasonDescriptions: Record<string, string> = {
  accepted: 'The mailbox accepted the recipient and a random address was refused.',
  syntax: 'Not a valid email address.',
  no_domain: 'The domain does not exist.',
  null_mx: 'The domain declares that it accepts no mail.',
  dns_error: 'DNS lookup failed or timed out; try again later.',
  no_mx: 'The domain has no mail server.',
  smtp_unreachable: 'No mail server could be reached.',
  policy_block: 'The mail server refused the check for policy reasons.',
  greylisted: 'The server asked us to retry later and did not answer in time.',
  mailbox_not_found: 'The mailbox does not exist.',
  mailbox_disabled: 'The mailbox exists but is disabled.',
  mailbox_full: 'The mailbox is over quota.',
  catch_all: 'The domain accepts every address, so this one cannot be confirmed.',
  disposable: 'The address belongs to a disposable provider.',
  blocked_address: 'The domain points to a private network address and was not contacted.',
  smtp_not_checked: 'Your plan checks syntax and MX only; the mailbox was not asked.',
  address_literal: 'The domain is an IP address literal (user@[192.0.2.1]): valid syntax, never probed.',
};

const errors = [
  { status: '400', name: 'Bad Request', text: 'The body is not valid JSON or a field is missing or malformed (for example no email, or more than 10,000 emails).' },
  { status: '401', name: 'Unauthorized', text: 'The Authorization header is missing, or the API key is unknown or revoked.' },
  { status: '402', name: 'Payment Required', text: 'Insufficient credits: your balance cannot cover the request. Nothing is checked or charged.' },
  { status: '403', name: 'Forbidden', text: 'Your plan does not include this feature (for example API access on the Free plan, or SMTP checks).' },
  { status: '404', name: 'Not Found', text: 'The job does not exist or belongs to another account.' },
  { status: '409', name: 'Conflict', text: 'Job results were requested while the job is still pending or processing.' },
  { status: '429', name: 'Too Many Requests', text: 'You exceeded your plan’s requests per second. Wait for the number of seconds in the Retry-After header.' },
] as const;

function QuickStart() {
  return (
    <div className="space-y-10">
      <div className="space-y-3">
        <H2>Validate your first address in 2 minutes</H2>
        <P>
          The Mailvet API is a JSON over HTTPS REST API. Authenticate with an API key, send an address, and get a verdict with a
          deliverability score — typically in under a second.
        </P>
      </div>
      <ol className="space-y-8">
        <li className="flex gap-4">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">1</span>
          <div className="min-w-0 flex-1 space-y-2">
            <H3>Create an account</H3>
            <P>
              <Link to={paths.auth} className="font-medium text-brand-700 hover:underline">
                Sign up
              </Link>{' '}
              to get 500 free validations, no card required. API access starts on the{' '}
              {firstApiPlan ? `${firstApiPlan.name} plan (${formatPlanPrice(firstApiPlan, 'USD')}${firstApiPlan.period})` : 'paid plans'}.
            </P>
          </div>
        </li>
        <li className="flex gap-4">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">2</span>
          <div className="min-w-0 flex-1 space-y-2">
            <H3>Create an API key</H3>
            <P>
              In the dashboard open{' '}
              <Link to={paths.dashboard.apiKeys} className="font-medium text-brand-700 hover:underline">
                API Keys
              </Link>
              , name the key and copy it. The full key is shown only once; we store a one-way hash.
            </P>
          </div>
        </li>
        <li className="flex gap-4">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">3</span>
          <div className="min-w-0 flex-1 space-y-3">
            <H3>Send a request</H3>
            <CodeBlock language="bash" title="cURL" code={withBase(ex.curlValidate)} />
          </div>
        </li>
        <li className="flex gap-4">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">4</span>
          <div className="min-w-0 flex-1 space-y-3">
            <H3>Read the result</H3>
            <P>
              Act on <InlineCode>result</InlineCode>: accept <InlineCode>valid</InlineCode>, reject <InlineCode>invalid</InlineCode>,
              and decide on <InlineCode>risky</InlineCode> using <InlineCode>reason</InlineCode> and{' '}
              <InlineCode>deliverability_score</InlineCode>.
            </P>
            <CodeBlock language="json" title="200 OK" code={ex.validateResponse} />
          </div>
        </li>
      </ol>
      <Callout icon={KeyRound} tone="warning">
        Keep your API key on your server. Anyone with the key can spend your credits; if one leaks, revoke it in API Keys and create a
        new one.
      </Callout>
    </div>
  );
}

function ApiReference() {
  return (
    <div className="space-y-10">
      <div className="space-y-3">
        <H2 id="authentication">Authentication</H2>
        <P>
          Send your API key as a bearer token on every request. Requests are accepted over HTTPS only; bodies are JSON with{' '}
          <InlineCode>Content-Type: application/json</InlineCode>.
        </P>
        <CodeBlock language="http" title="Headers" code={'Authorization: Bearer mv_live_xxxxxxxxxxxxxxxxxxxxxxxx\nContent-Type: application/json'} />
        <P>
          Base URL: <InlineCode>{apiBase()}/v1</InlineCode>. Each validated address uses one credit. The machine-readable description
          (OpenAPI 3.1) is at <InlineCode>GET /v1/openapi.json</InlineCode>.
        </P>
      </div>

      <Endpoint id="validate" method="POST" path="/v1/validate" title="Validate a single address">
        <P>Runs every check your plan includes and returns the verdict synchronously.</P>
        <FieldTable caption="Request body" rows={[{ name: 'email', type: 'string', description: 'The address to validate. Required.' }]} />
        <CodeBlock language="bash" title="Request" code={withBase(ex.curlValidate)} />
        <CodeBlock language="json" title="Response · 200 OK" code={ex.validateResponse} />
        <FieldTable caption="Response fields" rows={resultFields} />
      </Endpoint>

      <Endpoint id="bulk" method="POST" path="/v1/bulk" title="Start a bulk validation job">
        <P>
          Queues up to 10,000 addresses and returns immediately. Follow the job with <InlineCode>GET /v1/jobs/{'{id}'}</InlineCode>, or
          pass <InlineCode>webhook_url</InlineCode> to be called when it finishes. Requires a plan with bulk validation.
        </P>
        <FieldTable
          caption="Request body"
          rows={[
            { name: 'emails', type: 'string[]', description: 'The addresses to validate (1–10,000). Required.' },
            { name: 'webhook_url', type: 'string', description: 'Optional HTTPS URL we POST to when the job completes or fails.' },
          ]}
        />
        <CodeBlock language="bash" title="Request" code={withBase(ex.bulkRequest)} />
        <CodeBlock language="json" title="Response · 200 OK" code={ex.bulkResponse} />
        <FieldTable
          caption="Response fields"
          rows={[
            { name: 'job_id', type: 'string', description: 'Identifier of the new job.' },
            { name: 'total_emails', type: 'integer', description: 'Number of addresses accepted into the job.' },
            { name: 'status', type: 'string', description: <>Always <InlineCode>pending</InlineCode> on creation.</> },
          ]}
        />
      </Endpoint>

      <Endpoint id="job" method="GET" path="/v1/jobs/{id}" title="Get a job's status">
        <P>
          Status moves from <InlineCode>pending</InlineCode> to <InlineCode>processing</InlineCode> and ends as{' '}
          <InlineCode>completed</InlineCode> or <InlineCode>failed</InlineCode>. Progress is{' '}
          <InlineCode>processed_emails / total_emails</InlineCode>.
        </P>
        <CodeBlock language="json" title="Response · 200 OK" code={ex.jobResponse} />
      </Endpoint>

      <Endpoint id="job-results" method="GET" path="/v1/jobs/{id}/results" title="Get a job's results">
        <P>
          Returns one result per address in the same public shape as <InlineCode>/v1/validate</InlineCode>. Available once the job is no
          longer pending or processing (before that the answer is <InlineCode>409</InlineCode>).
        </P>
        <P>
          One page holds up to 10,000 results, so a whole job by default. For smaller pages pass <InlineCode>?limit=</InlineCode> (1–10,000) and
          then <InlineCode>?cursor=</InlineCode> with the <InlineCode>next_cursor</InlineCode> of the previous page, until it is{' '}
          <InlineCode>null</InlineCode>.
        </P>
        <CodeBlock language="json" title="Response · 200 OK" code={ex.jobResultsResponse} />
      </Endpoint>

      <section aria-labelledby="reasons" className="space-y-4">
        <H2 id="reasons">Reason codes</H2>
        <div className="overflow-x-auto rounded-xl border border-slate-200">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Reason codes</caption>
            <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  reason
                </th>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  Meaning
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {reasonSchema.options.map((r) => (
                <tr key={r}>
                  <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">{r}</td>
                  <td className="px-4 py-2.5 text-slate-600">{reasonDescriptions[r] ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="errors" className="space-y-4">
        <H2 id="errors">Errors</H2>
        <P>Errors use standard HTTP status codes and a JSON body with a stable machine-readable code and a human message.</P>
        <ul role="list" className="divide-y divide-slate-100 rounded-xl border border-slate-200">
          {errors.map((e) => (
            <li key={e.status} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:gap-4">
              <span className="shrink-0 sm:w-52">
                <Badge variant={e.status === '429' || e.status === '402' ? 'warning' : 'danger'} className="font-mono">
                  {e.status}
                </Badge>{' '}
                <span className="text-sm font-medium text-slate-900">{e.name}</span>
              </span>
              <span className="text-sm leading-6 text-slate-600">{e.text}</span>
            </li>
          ))}
        </ul>
        <CodeBlock language="http" title="Example · 429" code={ex.errorResponse} />
      </section>

      <section aria-labelledby="rate-limits" className="space-y-4">
        <H2 id="rate-limits">Rate limits</H2>
        <P>
          Limits are per account, across all of its API keys. Over the limit you get <InlineCode>429</InlineCode> with a{' '}
          <InlineCode>Retry-After</InlineCode> header (seconds).
        </P>
        <div className="overflow-x-auto rounded-xl border border-slate-200">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">API rate limits per plan</caption>
            <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  Plan
                </th>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  Requests per second
                </th>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  Monthly validations
                </th>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  API keys
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {PLANS.map((p) => (
                <tr key={p.type}>
                  <td className="px-4 py-2.5 font-medium text-slate-900">{p.name}</td>
                  <td className="px-4 py-2.5 text-slate-600">{p.apiRateLabel}</td>
                  <td className="px-4 py-2.5 text-slate-600">{p.volumeLabel}</td>
                  <td className="px-4 py-2.5 text-slate-600">{p.apiKeys ? 'Included' : 'Not included'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="webhooks" className="space-y-4">
        <H2 id="webhooks">Webhooks</H2>
        <P>
          When a bulk job with a <InlineCode>webhook_url</InlineCode> completes or fails, we send a <InlineCode>POST</InlineCode> with a
          JSON body. Each request is signed with HMAC-SHA256 over the raw request body using your webhook signing secret, and the hex
          digest is sent as <InlineCode>X-Mailvet-Signature: sha256=&lt;hex&gt;</InlineCode>. Compute the same digest over the exact bytes
          you received (before parsing the JSON) and compare in constant time. Respond with any 2xx status; other responses are retried.
        </P>
        <P>
          Owners and admins find the signing secret (<InlineCode>whsec_…</InlineCode>) on the API Keys page of the dashboard. The event is{' '}
          <InlineCode>job.completed</InlineCode> or <InlineCode>job.failed</InlineCode>. Failed deliveries are retried with exponential backoff
          for about two and a half hours (10 attempts); every attempt sends the same body, and{' '}
          <InlineCode>X-Mailvet-Delivery</InlineCode> (the job id) lets you ignore a duplicate. The URL must be HTTPS on a public address.
        </P>
        <CodeBlock language="http" title="Webhook request" code={ex.webhookPayload} />
      </section>
    </div>
  );
}

const exampleTabs = [
  { name: 'JavaScript', language: 'javascript', code: ex.javascriptExample },
  { name: 'Python', language: 'python', code: ex.pythonExample },
  { name: 'PHP', language: 'php', code: ex.phpExample },
  { name: 'Node', language: 'javascript', code: ex.nodeExample },
] as const;

function Examples() {
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <H2>Code examples</H2>
        <P>
          Copy-paste starting points. Each reads the key from the <InlineCode>MAILVET_API_KEY</InlineCode> environment variable and
          handles <InlineCode>429</InlineCode> by waiting for <InlineCode>Retry-After</InlineCode>.
        </P>
      </div>
      <Tabs>
        <TabsList aria-label="Example language" className="w-fit">
          {exampleTabs.map((t) => (
            <TabsTrigger key={t.name}>{t.name}</TabsTrigger>
          ))}
        </TabsList>
        <TabsPanels className="mt-4">
          {exampleTabs.map((t) => (
            <TabsPanel key={t.name}>
              <CodeBlock language={t.language} title={t.name} code={withBase(t.code)} />
            </TabsPanel>
          ))}
        </TabsPanels>
      </Tabs>
    </div>
  );
}

const practices = [
  {
    icon: Rocket,
    title: 'Only decided results are charged',
    text: FAIR_CHARGING_RULE,
  },
  {
    icon: Rocket,
    title: 'Validate at the point of entry',
    text: 'Call /v1/validate from your sign-up or checkout backend, and show a friendly prompt when the result is invalid. Bad data caught at the form never reaches your list.',
  },
  {
    icon: AlertTriangle,
    title: 'Treat "risky" as a decision, not an error',
    text: 'Catch-all, greylisted and role addresses often work. Use reason and deliverability_score to choose: keep, send a confirmation email, or suppress from cold campaigns.',
  },
  {
    icon: Timer,
    title: 'Respect rate limits',
    text: 'Pace requests to your plan’s requests per second. On 429, wait for Retry-After before retrying, and back off exponentially on repeated 5xx errors.',
  },
  {
    icon: Webhook,
    title: 'Use bulk jobs and webhooks for lists',
    text: 'For more than a few hundred addresses, send one /v1/bulk request instead of many single calls, and let the signed webhook tell you when it is done rather than polling.',
  },
  {
    icon: KeyRound,
    title: 'Protect your keys',
    text: 'Keep keys in environment variables or a secret manager, never in client-side code or repositories. Use one key per system so you can revoke one without downtime.',
  },
  {
    icon: ShieldCheck,
    title: 'Revalidate regularly',
    text: 'Mailboxes close and domains expire. Re-check saved lists before big sends, or schedule Auto Revalidation to do it daily, weekly or monthly.',
  },
] as const;

function BestPractices() {
  return (
    <div className="space-y-6">
      <H2>Best practices</H2>
      <ul role="list" className="grid gap-4 md:grid-cols-2">
        {practices.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <span className="flex size-9 items-center justify-center rounded-lg bg-brand-50 text-brand-600">
              <Icon className="size-[18px]" aria-hidden="true" />
            </span>
            <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
            <p className="mt-1.5 text-sm leading-6 text-slate-600">{text}</p>
          </li>
        ))}
      </ul>
      <Callout>
        Questions about an integration? Email{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
          {SUPPORT_EMAIL}
        </a>{' '}
        — we reply within 24 hours.
      </Callout>
    </div>
  );
}

/** The whole API documentation (tabs). Shared by /documentation and /dashboard/documentation. */
export function ApiDocumentation({ className }: { className?: string }) {
  return (
    <Tabs className={className}>
      <TabsList aria-label="Documentation sections" className="w-full sm:w-fit">
        <TabsTrigger>Quick Start</TabsTrigger>
        <TabsTrigger>API Reference</TabsTrigger>
        <TabsTrigger>Examples</TabsTrigger>
        <TabsTrigger>Best Practices</TabsTrigger>
      </TabsList>
      <TabsPanels className="mt-8">
        <TabsPanel>
          <QuickStart />
        </TabsPanel>
        <TabsPanel>
          <ApiReference />
        </TabsPanel>
        <TabsPanel>
          <Examples />
        </TabsPanel>
        <TabsPanel>
          <BestPractices />
        </TabsPanel>
      </TabsPanels>
    </Tabs>
  );
}
