import { AlertTriangle, KeyRound, Rocket, ShieldCheck, Timer, Webhook } from 'lucide-react';
import { FAIR_CHARGING_RULE } from '../../../server/contracts/charging';
import { MAX_WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_WINDOW_HOURS } from '../../../server/contracts/webhooks';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PLANS, SUPPORT_EMAIL, formatPlanPrice } from '../../../server/contracts/plans';
import { IconCardList } from '../../components/ui/icon-card';
import { Tabs, TabsList, TabsPanel, TabsPanels, TabsTrigger } from '../../components/ui/tabs';
import { paths } from '../../config/paths';
import { CodeBlock, InlineCode } from './code-block';
import { Callout, DocTable, H2, H3, P, Step, TabIntro } from './doc-parts';
import * as ex from './examples';
import { ErrorCodes, OpenApiEndpoints, ReasonCodes, SandboxAddresses } from './api-reference';
import { AiAssistantSection, KeyScopesSection } from './keys-docs';

/** The API origin shown in samples: this site's origin (the API is served under /v1 on the same host). */
function apiBase(): string {
  return typeof window === 'undefined' ? 'https://mailvet.io' : window.location.origin;
}

function withBase(code: string) {
  return ex.exampleCode(code, apiBase());
}

const firstApiPlan = PLANS.find((p) => p.apiKeys);

function QuickStart() {
  return (
    <div className="space-y-10">
      <TabIntro title="Validate your first address in 2 minutes">
        <P>
          The Mailvet API is a JSON over HTTPS REST API. Authenticate with an API key, send an address, and get a verdict with a
          deliverability score — typically in under a second.
        </P>
      </TabIntro>
      <ol className="space-y-8">
        <Step n={1} title="Create an account">
          <P>
            <Link to={paths.auth} className="font-medium text-brand-700 hover:underline">
              Sign up
            </Link>{' '}
            to get 500 free validations, no card required. API access starts on the{' '}
            {firstApiPlan ? `${firstApiPlan.name} plan (${formatPlanPrice(firstApiPlan, 'USD')}${firstApiPlan.period})` : 'paid plans'}.
          </P>
        </Step>
        <Step n={2} title="Create an API key">
          <P>
            In the dashboard open{' '}
            <Link to={paths.dashboard.apiKeys} className="font-medium text-brand-700 hover:underline">
              API Keys
            </Link>
            , name the key and copy it. The full key is shown only once; we store a one-way hash.
          </P>
        </Step>
        <Step n={3} title="Send a request" className="space-y-3">
          <CodeBlock language="bash" title="cURL" code={withBase(ex.EXAMPLES[0]!.curl ?? '')} />
        </Step>
        <Step n={4} title="Read the result" className="space-y-3">
          <P>
            Act on <InlineCode>result</InlineCode>: accept <InlineCode>valid</InlineCode>, reject <InlineCode>invalid</InlineCode>,
            and decide on <InlineCode>risky</InlineCode> using <InlineCode>reason</InlineCode> and{' '}
            <InlineCode>deliverability_score</InlineCode>.
          </P>
          <CodeBlock language="json" title="200 OK" code={ex.validateResponse} />
        </Step>
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
      <TabIntro title="Authentication" id="authentication">
        <P>
          Send your API key as a bearer token on every request. Requests are accepted over HTTPS only; bodies are JSON with{' '}
          <InlineCode>Content-Type: application/json</InlineCode>. A test key (<InlineCode>mv_test_…</InlineCode>) answers from the
          sandbox and never costs credits.
        </P>
        <CodeBlock language="http" title="Headers" code={'Authorization: Bearer mv_live_xxxxxxxxxxxxxxxxxxxxxxxx\nContent-Type: application/json'} />
        <P>
          Base URL: <InlineCode>{apiBase()}/v1</InlineCode>. Each validated address uses one credit. Every{' '}
          <InlineCode>POST</InlineCode> takes an <InlineCode>Idempotency-Key</InlineCode> header (the same key and body within 24 hours
          return the original answer, with no second charge), and every response carries <InlineCode>X-Request-Id</InlineCode>. This
          reference is rendered from the machine-readable description (OpenAPI 3.1) at <InlineCode>GET /v1/openapi.json</InlineCode>.
        </P>
      </TabIntro>

      <section aria-labelledby="sandbox" className="space-y-4">
        <H2 id="sandbox">Sandbox (test keys)</H2>
        <P>
          Create a key as a test key on the API Keys page (<InlineCode>mv_test_…</InlineCode>) to build your integration for free: it
          never contacts a mail server and never costs credits, bulk jobs complete and webhooks fire as with a live key. These
          addresses produce every verdict and reason (a <InlineCode>+tag</InlineCode> before the @ is ignored); any other address
          answers <InlineCode>risky</InlineCode> / <InlineCode>smtp_not_checked</InlineCode>. Sandbox results never count in your usage
          or analytics; test keys see only sandbox jobs, and live keys only live ones.
        </P>
        <SandboxAddresses />
      </section>

      <KeyScopesSection />

      <OpenApiEndpoints origin={apiBase()} />

      <section aria-labelledby="reasons" className="space-y-4">
        <H2 id="reasons">Reason codes</H2>
        <P>
          The <InlineCode>reason</InlineCode> field of every result is one of these codes.
        </P>
        <ReasonCodes />
      </section>

      <section aria-labelledby="errors" className="space-y-4">
        <H2 id="errors">Errors</H2>
        <P>
          Errors use standard HTTP status codes and an <InlineCode>application/problem+json</InlineCode> body (RFC 9457:{' '}
          <InlineCode>type</InlineCode>, <InlineCode>title</InlineCode>, <InlineCode>status</InlineCode>, <InlineCode>detail</InlineCode>)
          that also carries a stable machine-readable <InlineCode>code</InlineCode> and a human <InlineCode>message</InlineCode>.
        </P>
        <ErrorCodes />
        <CodeBlock language="http" title="Example · 429" code={withBase(ex.errorResponse)} />
      </section>

      <section aria-labelledby="rate-limits" className="space-y-4">
        <H2 id="rate-limits">Rate limits</H2>
        <P>
          Limits are per account, across all of its live API keys (test keys share a limit of their own at the same rate); a key can
          also have its own lower limit. Every answer after the key check carries <InlineCode>X-RateLimit-Limit</InlineCode> (requests
          per second for this key) and <InlineCode>X-RateLimit-Remaining</InlineCode> (left in the current second). Over the limit you
          get <InlineCode>429</InlineCode> with a <InlineCode>Retry-After</InlineCode> header (seconds).
        </P>
        <DocTable caption="API rate limits per plan" columns={['Plan', 'Requests per second', 'Monthly validations', 'API keys']}>
          {PLANS.map((p) => (
            <tr key={p.type}>
              <td className="px-4 py-2.5 font-medium text-slate-900">{p.name}</td>
              <td className="px-4 py-2.5 text-slate-600">{p.apiRateLabel}</td>
              <td className="px-4 py-2.5 text-slate-600">{p.volumeLabel}</td>
              <td className="px-4 py-2.5 text-slate-600">{p.apiKeys ? 'Included' : 'Not included'}</td>
            </tr>
          ))}
        </DocTable>
      </section>

      <section aria-labelledby="webhooks" className="space-y-4">
        <H2 id="webhooks">Webhooks</H2>
        <P>
          We send a <InlineCode>POST</InlineCode> with a JSON body when something happens: to the <InlineCode>webhook_url</InlineCode> of a bulk
          job when it completes, fails or is cancelled (Pro and up), and to your account webhooks for the events each one subscribes to (Enterprise; owners and
          admins add them on the API Keys page).
        </P>
        <div className="overflow-x-auto rounded-lg border border-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2.5 font-semibold">Event</th>
                <th scope="col" className="px-4 py-2.5 font-semibold">Sent when</th>
                <th scope="col" className="px-4 py-2.5 font-semibold">Body</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              <tr>
                <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">job.completed</td>
                <td className="px-4 py-2.5 text-slate-600">A bulk job finished (job webhook_url and account webhooks).</td>
                <td className="px-4 py-2.5 text-slate-600">event, job_id, status, total_emails, processed_emails, created_at, completed_at, test</td>
              </tr>
              <tr>
                <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">job.failed</td>
                <td className="px-4 py-2.5 text-slate-600">A bulk job could not finish (job webhook_url and account webhooks).</td>
                <td className="px-4 py-2.5 text-slate-600">the same fields, with status failed</td>
              </tr>
              <tr>
                <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">job.cancelled</td>
                <td className="px-4 py-2.5 text-slate-600">A bulk job was cancelled, from History or through the API (job webhook_url and account webhooks).</td>
                <td className="px-4 py-2.5 text-slate-600">the same fields, with status cancelled (the results done so far are kept)</td>
              </tr>
              <tr>
                <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">schedule.run_completed</td>
                <td className="px-4 py-2.5 text-slate-600">An auto-revalidation run completed (account webhooks).</td>
                <td className="px-4 py-2.5 text-slate-600">
                  schedule_id, schedule_name, job_id, previous_job_id, totals, and <InlineCode>changed</InlineCode>: each address whose result differs
                  from the previous run (email, previous, current, reason), at most 1,000, with changed_count and truncated
                </td>
              </tr>
            </tbody>
          </table>
        </div>
        <P>
          <strong className="font-semibold text-slate-900">Verify the signature.</strong> Each request carries{' '}
          <InlineCode>X-Mailvet-Timestamp</InlineCode> (Unix seconds, taken when that attempt was sent; every retry has its own) and{' '}
          <InlineCode>X-Mailvet-Signature-V2: t=&lt;timestamp&gt;,v1=&lt;hex&gt;</InlineCode>, the HMAC-SHA256, with your account&apos;s webhook
          signing secret, of <InlineCode>&lt;timestamp&gt;.&lt;X-Mailvet-Delivery&gt;.&lt;raw body&gt;</InlineCode>. Compute the same digest over
          the exact bytes you received (before parsing the JSON), compare it in constant time with <InlineCode>v1</InlineCode>, and refuse a
          timestamp more than 5 minutes from your clock: a captured request replayed later fails, and neither the body nor the delivery id can
          be changed. Ignore parts of the header you do not know. The older <InlineCode>X-Mailvet-Signature: sha256=&lt;hex&gt;</InlineCode>{' '}
          (HMAC-SHA256 of the raw body alone) is still sent unchanged, but it covers no time, so a copy of a request verifies forever. Owners
          and admins find the secret (<InlineCode>whsec_…</InlineCode>) on the API Keys page and can rotate it there: the new secret is shown
          once and signs every request from then on, retries included; the old one stops at once.
        </P>
        <P>
          <strong className="font-semibold text-slate-900">Delivery.</strong> Respond with any 2xx status within 10 seconds for the whole
          exchange; we read at most 64 KB of your answer and never follow redirects. Anything else is retried with exponential backoff for about{' '}
          {WEBHOOK_RETRY_WINDOW_HOURS} hours ({MAX_WEBHOOK_ATTEMPTS} attempts); every attempt sends the same body, and <InlineCode>X-Mailvet-Delivery</InlineCode> (for a
          job&apos;s webhook_url, the job id) lets you ignore a duplicate. <InlineCode>X-Mailvet-Event</InlineCode> names the event and{' '}
          <InlineCode>X-Mailvet-Attempt</InlineCode> counts attempts. The API Keys page logs every delivery (status code, latency, attempts,
          error; each attempt and the body sent) and can replay one: a new delivery with its own id and the same body. The URL must be HTTPS on port 443 at a public address.
        </P>
        <P>
          The two sample requests below are really signed, with the example secret <InlineCode>{ex.EXAMPLE_WEBHOOK_SECRET}</InlineCode>: feed one
          to your receiver with its clock at the sample&apos;s timestamp and it must accept it, then with any other secret, or a clock more than 5 minutes off, and
          it must refuse it.
        </P>
        <CodeBlock language="http" title="Webhook request (job.completed)" code={ex.webhookPayload} />
        <CodeBlock language="http" title="Webhook request (schedule.run_completed)" code={ex.scheduleRunPayload} />
      </section>
    </div>
  );
}

const LANGUAGES = [
  { key: 'curl', name: 'cURL', language: 'bash' },
  { key: 'javascript', name: 'JavaScript', language: 'javascript' },
  { key: 'node', name: 'Node.js', language: 'javascript' },
  { key: 'python', name: 'Python', language: 'python' },
  { key: 'php', name: 'PHP', language: 'php' },
] as const;

function Examples() {
  return (
    <div className="space-y-10">
      <TabIntro title="Code examples">
        <P>
          Copy-paste starting points for every call, in cURL, JavaScript (the browser&apos;s fetch), Node.js, Python and PHP. Each reads
          the key from the <InlineCode>MAILVET_API_KEY</InlineCode> environment variable, or in JavaScript a constant of that name (a test
          key works: it answers from the sandbox for free); the examples about one job read its id from <InlineCode>JOB_ID</InlineCode>.
          Their <InlineCode>call</InlineCode> helper waits out a <InlineCode>429</InlineCode> (<InlineCode>Retry-After</InlineCode>) and sends the request again. A key in a web page can be read by anyone who opens it: in the browser use a test key, and keep live keys on your server. The
          cURL, JavaScript, Node.js and Python examples are run against a live server by our test suite on every change.
        </P>
      </TabIntro>
      {ex.EXAMPLES.map((e) => (
        <ExampleCard key={e.id} example={e} />
      ))}
      <AiAssistantSection baseUrl={apiBase()} />
    </div>
  );
}

function ExampleCard({ example }: { example: ex.ApiExample }) {
  const langs = LANGUAGES.filter((l) => example[l.key] !== undefined);
  return (
    <section id={`example-${example.id}`} aria-labelledby={`example-${example.id}-title`} className="scroll-mt-6 space-y-3">
      <H3 id={`example-${example.id}-title`}>{example.title}</H3>
      <P>
        {example.operation ? (
          <>
            <InlineCode>{example.operation}</InlineCode>{' '}
          </>
        ) : null}
        {example.description}
      </P>
      <Tabs>
        <TabsList aria-label={`${example.title}: language`} className="grid w-full grid-cols-3 sm:flex sm:w-fit">
          {langs.map((l) => (
            <TabsTrigger key={l.key}>{l.name}</TabsTrigger>
          ))}
        </TabsList>
        <TabsPanels className="mt-3">
          {langs.map((l) => (
            <TabsPanel key={l.key}>
              <CodeBlock language={l.language} title={`${example.title} · ${l.name}`} code={withBase(example[l.key] ?? '')} />
            </TabsPanel>
          ))}
        </TabsPanels>
      </Tabs>
    </section>
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
    text: 'Keep live keys in environment variables or a secret manager on your server, never in client-side code or repositories: anyone who opens a page can read a key in it, so a browser only ever gets a test key (mv_test_…, sandbox only, no credits). Use one key per system so you can revoke one without downtime.',
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
      <IconCardList items={practices} size="sm" className="grid gap-4 md:grid-cols-2" />
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

const REFERENCE_TAB = 1;
const EXAMPLES_TAB = 2;
const REFERENCE_SECTION = /^(error|reason|object|tag|webhook)-|^(authentication|sandbox|scopes|objects|reasons|errors|rate-limits|webhooks)$/;

function sectionOf(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return '';
  }
}

/** Each tab's own #link, in tab order: choosing a tab writes it, so reload, Back and Forward keep the tab. */
const TAB_HASHES = ['quick-start', 'api-reference', 'examples', 'best-practices'] as const;

/** The tab that holds a #section of the docs, or null when the id is not one of the known patterns. */
function tabOfSection(id: string): number | null {
  if (!id) return null;
  const own = (TAB_HASHES as readonly string[]).indexOf(id);
  if (own >= 0) return own;
  if (id === 'ai-assistant' || id.startsWith('example-')) return EXAMPLES_TAB;
  return REFERENCE_SECTION.test(id) ? REFERENCE_TAB : null;
}

/**
 * The tab a #link opens. Every /v1 error's `type` is …/documentation#error-CODE, and endpoints,
 * objects and examples have their own #ids, but only the selected tab is rendered: such a link
 * showed Quick Start and went nowhere. Now the tab holding the section opens and the page scrolls
 * to it once it is there (the API Reference's endpoints wait for the OpenAPI document).
 */
function useTabOfHash(): [number, (tab: number) => void] {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const [tab, setTab] = useState(() => tabOfSection(sectionOf(hash)) ?? 0);
  useEffect(() => {
    const id = sectionOf(hash);
    const own = (TAB_HASHES as readonly string[]).indexOf(id);
    // A tab's own link (chosen here, reloaded, or reached with Back/Forward): that tab, nothing to scroll to.
    if (own >= 0) {
      setTab(own);
      return;
    }
    // No hash (Back to the page as first opened): its first tab.
    if (!id) {
      setTab(0);
      return;
    }
    // Already on the page (a link inside the open tab, the page's own #main): the browser and the router scroll to it.
    if (document.getElementById(id)) return;
    setTab(tabOfSection(id) ?? REFERENCE_TAB); // an endpoint's id (its operationId) is on the API Reference
    let frame = 0;
    let tries = 0;
    const scrollWhenShown = () => {
      const el = document.getElementById(id);
      if (el) el.scrollIntoView();
      else if (++tries < 600) frame = requestAnimationFrame(scrollWhenShown);
    };
    frame = requestAnimationFrame(scrollWhenShown);
    return () => cancelAnimationFrame(frame);
  }, [hash]);
  const choose = (next: number) => {
    setTab(next);
    const own = TAB_HASHES[next];
    if (own && sectionOf(hash) !== own) void navigate({ hash: `#${own}` }, { preventScrollReset: true });
  };
  return [tab, choose];
}

/** The whole API documentation (tabs). Shared by /documentation and /dashboard/documentation. */
export function ApiDocumentation({ className }: { className?: string }) {
  const [tab, setTab] = useTabOfHash();
  return (
    <Tabs className={className} selectedIndex={tab} onChange={setTab}>
      <TabsList aria-label="Documentation sections" className="grid w-full grid-cols-2 sm:flex sm:w-fit">
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
