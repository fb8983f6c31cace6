// Documentation sections for issue #12 items 5 and 7: key scopes and per-key limits, and the MCP
// server for AI assistants. (The sandbox table is api-reference.tsx's SandboxAddresses.)
import { Bot } from 'lucide-react';
import { API_SCOPE_LABELS, API_SCOPES } from '../../../server/contracts/api-keys';
import { CodeBlock, InlineCode } from './code-block';
import { DocTable, H2, P } from './doc-parts';

/** Scopes, per-key rate limits. */
export function KeyScopesSection() {
  return (
    <section aria-labelledby="scopes" className="space-y-4">
      <H2 id="scopes" className="flex items-center gap-2">Key scopes and limits</H2>
      <P>
        Each key holds the scopes chosen when it was created (keys made before scopes existed hold all four). A call outside the key&apos;s
        scopes is refused with <InlineCode>403</InlineCode>, code <InlineCode>SCOPE_REQUIRED</InlineCode> and the missing{' '}
        <InlineCode>scope</InlineCode>. A key can also have its own rate limit, at most your plan&apos;s; the account&apos;s limit still applies
        across all its live keys. Test keys share a limit of their own at the same rate, so calls with a test key never slow your live keys.
      </P>
      <DocTable caption="API key scopes" columns={['scope', 'Allows']}>
        {API_SCOPES.map((s) => (
          <tr key={s}>
            <td className="px-4 py-2.5 font-mono text-[13px] text-slate-900">{s}</td>
            <td className="px-4 py-2.5 text-slate-600">{API_SCOPE_LABELS[s].description}</td>
          </tr>
        ))}
      </DocTable>
      <CodeBlock
        language="json"
        title="403 · application/problem+json"
        code={JSON.stringify(
          {
            type: 'https://mailvet.io/documentation#error-SCOPE_REQUIRED',
            title: 'Forbidden',
            status: 403,
            detail: 'This API key does not have the "bulk" scope. Create a key with that scope on the API Keys page.',
            code: 'SCOPE_REQUIRED',
            scope: 'bulk',
            message: 'This API key does not have the "bulk" scope. Create a key with that scope on the API Keys page.',
          },
          null,
          2,
        )}
      />
    </section>
  );
}

export const MCP_CONFIG_SNIPPET = (baseUrl: string) =>
  JSON.stringify(
    {
      mcpServers: {
        mailvet: {
          command: 'node',
          args: ['/path/to/mailvet/scripts/mailvet.mjs', 'mcp'],
          env: { MAILVET_URL: baseUrl, MAILVET_API_KEY: 'mv_live_your_key_here' },
        },
      },
    },
    null,
    2,
  );

/** "Use with an AI assistant": the MCP server. */
export function AiAssistantSection({ baseUrl }: { baseUrl: string }) {
  return (
    <section aria-labelledby="ai-assistant" className="space-y-4">
      <H2 id="ai-assistant" className="flex items-center gap-2">
        <Bot className="size-5 text-brand-600" aria-hidden /> Use with an AI assistant
      </H2>
      <P>
        <InlineCode>mailvet mcp</InlineCode> is a Model Context Protocol server over stdio. Add it to Claude Desktop (
        <InlineCode>claude_desktop_config.json</InlineCode>), Cursor (<InlineCode>.cursor/mcp.json</InlineCode>) or any MCP client, and the
        assistant can validate addresses and run bulk jobs with your key. It calls this API over HTTPS, so the key&apos;s scopes, rate limit and
        credits apply; use a test key to try it on the sandbox first. <InlineCode>command</InlineCode> runs the <InlineCode>mailvet</InlineCode> CLI
        from a Mailvet checkout (after <InlineCode>npm install</InlineCode>); the assistant starts it and talks to it over stdin and stdout.
      </P>
      <CodeBlock language="json" title="mcpServers configuration" code={MCP_CONFIG_SNIPPET(baseUrl)} />
      <ul role="list" className="grid gap-2 text-sm text-slate-600 sm:grid-cols-2">
        {[
          ['validate_email', 'Checks one address (scope validate).'],
          ['start_bulk_job', 'Queues up to 10,000 addresses (scope bulk).'],
          ['get_job_status', 'Status and progress of a job (scope results).'],
          ['get_job_results', 'A page of results, with a cursor (scope results).'],
        ].map(([name, text]) => (
          <li key={name} className="rounded-lg border border-slate-200 px-3 py-2">
            <span className="font-mono text-[13px] text-slate-900">{name}</span> <span className="block text-xs">{text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
