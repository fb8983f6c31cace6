// The API Reference tab: endpoints, parameters, fields and enums rendered from the generated
// OpenAPI document (GET /v1/openapi.json); reason codes and error codes from the shared contracts.
// Adding a route, a field, a reason or an error code to the server shows it here with no edit.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ERROR_CODES, type ErrorCode } from '../../../server/contracts/error-codes';
import { reasonSchema } from '../../../probe/contract';
import { SANDBOX_ENTRIES, SANDBOX_SYNTAX_EXAMPLE } from '../../../server/contracts/sandbox';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/cn';
import { CodeBlock } from './code-block';
import { DocTable, H2 } from './doc-parts';
import { EXAMPLES, exampleCode, type ApiExample } from './examples';
import { endpointsOf, objectsOf, webhooksOf, type EndpointModel, type FieldRow, type OpenApiDocument, type WebhookModel } from './openapi-model';
import { REASON_TEXT } from '../../../server/contracts/reasons';

export const OPENAPI_PATH = '/v1/openapi.json';

async function fetchOpenApi(): Promise<OpenApiDocument> {
  const res = await fetch(OPENAPI_PATH, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`The API description could not be loaded (HTTP ${res.status}).`);
  return (await res.json()) as OpenApiDocument;
}

export function useOpenApiDocument() {
  return useQuery({ queryKey: ['openapi-document'], queryFn: fetchOpenApi, staleTime: 5 * 60 * 1000 });
}

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={cn(
        'rounded-md px-2 py-0.5 font-mono text-xs font-bold',
        method === 'POST' ? 'bg-emerald-100 text-emerald-800' : method === 'DELETE' ? 'bg-rose-100 text-rose-800' : 'bg-sky-100 text-sky-800',
      )}
    >
      {method}
    </span>
  );
}

function EnumValues({ values, link }: { values: string[]; link?: string }) {
  if (values.length === 0) return null;
  if (link) {
    return (
      <span className="mt-1 block text-xs text-slate-500">
        One of {values.length} codes, listed under{' '}
        <Link to={link} className="font-medium text-brand-700 hover:underline">
          Reason codes
        </Link>
        .
      </span>
    );
  }
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {values.map((v) => (
        <code key={v} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
          {v}
        </code>
      ))}
    </span>
  );
}

export function FieldTable({ rows, caption, showRequired = true }: { rows: readonly FieldRow[]; caption: string; showRequired?: boolean }) {
  if (rows.length === 0) return null;
  return (
    <DocTable
      caption={caption}
      captionClassName="bg-slate-50 px-4 pt-2.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase"
      columns={['Field', 'Type', 'Description']}
    >
      {rows.map((r) => (
        <tr key={`${r.name}\n${r.description}`} className="align-top">
          <td className="px-4 py-3 font-mono text-[13px] whitespace-nowrap text-slate-900">
            {r.name}
            {showRequired && r.required ? <span className="ml-1.5 font-sans text-[11px] font-medium text-rose-600">required</span> : null}
          </td>
          <td className="px-4 py-3 font-mono text-xs text-slate-500">
            {r.ref ? (
              <Link to={`#object-${r.ref}`} className="text-brand-700 hover:underline">
                {r.type}
              </Link>
            ) : (
              r.type
            )}
          </td>
          <td className="px-4 py-3 leading-6 text-slate-600">
            {r.description}
            <EnumValues values={r.enumValues} link={r.name === 'reason' || r.name.endsWith('.reason') ? '#reasons' : undefined} />
          </td>
        </tr>
      ))}
    </DocTable>
  );
}

function examplesFor(ep: EndpointModel): ApiExample[] {
  return EXAMPLES.filter((e) => e.operation === `${ep.method} ${ep.path}`);
}

function EndpointCard({ ep, origin }: { ep: EndpointModel; origin: string }) {
  const samples = examplesFor(ep);
  return (
    <section id={ep.id} aria-labelledby={`${ep.id}-title`} className="scroll-mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center gap-3">
        <MethodBadge method={ep.method} />
        <code className="font-mono text-sm font-semibold text-slate-900">{ep.path}</code>
        {ep.scope ? <Badge className="font-mono">scope: {ep.scope}</Badge> : null}
      </div>
      <h3 id={`${ep.id}-title`} className="text-base font-semibold text-slate-900">
        {ep.summary}
      </h3>
      {ep.description ? <p className="text-sm leading-7 text-slate-600">{ep.description}</p> : null}
      <FieldTable caption="Parameters" rows={ep.parameters} />
      <FieldTable caption="Request body (JSON)" rows={ep.body} />
      {samples.map((s) =>
        s.curl ? (
          <div key={s.id} className="space-y-3">
            <CodeBlock language="bash" title={`${s.title} · cURL`} code={exampleCode(s.curl, origin)} />
            {s.response ? <CodeBlock language="json" title="Response" code={s.response} /> : null}
          </div>
        ) : null,
      )}
      <FieldTable caption={ep.responseRef ? `Response · 200 (${ep.responseRef})` : 'Response · 200'} rows={ep.response} showRequired={false} />
      <FieldTable caption="Response headers" rows={ep.headers} showRequired={false} />
      {ep.errors.length > 0 ? (
        <div>
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Errors</p>
          <ul role="list" className="mt-2 space-y-1 text-sm text-slate-600">
            {ep.errors.map((e) => (
              <li key={e.status}>
                <span className="font-mono font-semibold text-slate-900">{e.status}</span> {e.description}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function WebhookCard({ hook }: { hook: WebhookModel }) {
  return (
    <section id={hook.id} aria-labelledby={`${hook.id}-title`} className="scroll-mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center gap-3">
        <MethodBadge method="POST" />
        <code className="font-mono text-sm font-semibold text-slate-900">{hook.event}</code>
        <Badge>to your webhook URL</Badge>
      </div>
      <h3 id={`${hook.id}-title`} className="text-base font-semibold text-slate-900">
        {hook.summary}
      </h3>
      {hook.description ? <p className="text-sm leading-7 text-slate-600">{hook.description}</p> : null}
      <FieldTable caption="Headers" rows={hook.headers} showRequired={false} />
      <FieldTable caption={hook.bodyRef ? `Body (JSON) · ${hook.bodyRef}` : 'Body (JSON)'} rows={hook.body} showRequired={false} />
    </section>
  );
}

/** Endpoints, webhook events and objects from the OpenAPI document. */
export function OpenApiEndpoints({ origin }: { origin: string }) {
  const doc = useOpenApiDocument();
  if (doc.isPending) {
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading the API reference…
      </p>
    );
  }
  if (doc.isError) {
    return (
      <p role="alert" className="rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800">
        {doc.error.message} The machine-readable description is at{' '}
        <a href={OPENAPI_PATH} className="font-medium underline">
          {OPENAPI_PATH}
        </a>
        .
      </p>
    );
  }
  const endpoints = endpointsOf(doc.data);
  const tags = [...new Set(endpoints.map((e) => e.tag))];
  return (
    <div className="space-y-10">
      <nav aria-label="Endpoints" className="rounded-xl border border-slate-200 bg-slate-50/60 p-4">
        <ul role="list" className="grid gap-1.5 sm:grid-cols-2">
          {endpoints.map((ep) => (
            <li key={ep.id} className="flex items-center gap-2 text-sm">
              <MethodBadge method={ep.method} />
              <Link to={`#${ep.id}`} className="font-mono text-[13px] text-slate-800 hover:text-brand-700 hover:underline">
                {ep.path}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <div key={tag} className="space-y-6">
          <H2 id={`tag-${tag.toLowerCase()}`}>{tag}</H2>
          {endpoints
            .filter((e) => e.tag === tag)
            .map((ep) => (
              <EndpointCard key={ep.id} ep={ep} origin={origin} />
            ))}
        </div>
      ))}
      <div className="space-y-6">
        <H2 id="webhook-events">Webhook events</H2>
        {webhooksOf(doc.data).map((hook) => (
          <WebhookCard key={hook.id} hook={hook} />
        ))}
      </div>
      <div className="space-y-6">
        <H2 id="objects">Objects</H2>
        {objectsOf(doc.data).map((o) => (
          <section key={o.name} id={`object-${o.name}`} className="scroll-mt-6 space-y-3">
            <h3 className="font-mono text-base font-semibold text-slate-900">{o.name}</h3>
            {o.description ? <p className="text-sm leading-7 text-slate-600">{o.description}</p> : null}
            <FieldTable caption={`${o.name} fields`} rows={o.fields} showRequired={false} />
          </section>
        ))}
      </div>
    </div>
  );
}

/** Every reason code of the engine's contract, with its label and meaning. */
export function ReasonCodes() {
  return (
    <DocTable caption="Reason codes" columns={['reason', 'Label', 'Meaning']}>
      {reasonSchema.options.map((r) => (
        <tr key={r} id={`reason-${r}`} data-reason={r} className="scroll-mt-6 target:bg-amber-50">
          <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">{r}</td>
          <td className="px-4 py-2.5 whitespace-nowrap text-slate-900">{REASON_TEXT[r].label}</td>
          <td className="px-4 py-2.5 text-slate-600">{REASON_TEXT[r].description}</td>
        </tr>
      ))}
    </DocTable>
  );
}

const errorCodes = Object.entries(ERROR_CODES) as Array<[ErrorCode, (typeof ERROR_CODES)[ErrorCode]]>;

/** Every app error code of the contract, with its HTTP status and meaning. */
export function ErrorCodes() {
  return (
    <DocTable caption="Error codes" columns={['Status', 'code', 'Meaning']}>
      {[...errorCodes]
        .sort((a, b) => a[1].status - b[1].status)
        .map(([code, info]) => (
          <tr key={code} id={`error-${code}`} data-error-code={code} className="scroll-mt-6 target:bg-amber-50">
            <td className="px-4 py-2.5">
              <Badge variant={info.status === 429 || info.status === 402 ? 'warning' : 'danger'} className="font-mono">
                {info.status}
              </Badge>
            </td>
            <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">{code}</td>
            <td className="px-4 py-2.5 leading-6 text-slate-600">{info.description}</td>
          </tr>
        ))}
    </DocTable>
  );
}

/** The sandbox table of the contract: what a test key answers for each documented address. */
export function SandboxAddresses() {
  const rows = [...SANDBOX_ENTRIES, SANDBOX_SYNTAX_EXAMPLE];
  return (
    <DocTable caption="Sandbox addresses" columns={['Address', 'result / reason', 'What it stands for']}>
      {rows.map((e) => (
        <tr key={e.address} className="align-top">
          <td className="px-4 py-2.5 font-mono text-[13px] whitespace-nowrap text-slate-900">{e.address}</td>
          <td className="px-4 py-2.5 font-mono text-xs whitespace-nowrap text-slate-600">
            {e.result} / {e.reason}
          </td>
          <td className="px-4 py-2.5 leading-6 text-slate-600">{e.description}</td>
        </tr>
      ))}
    </DocTable>
  );
}
