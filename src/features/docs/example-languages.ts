// How the Documentation page's examples are written in each language. examples.ts describes each
// call once (method, path, body, what to print); these functions write it as a cURL command and as
// Node.js, Python and PHP code, so the four versions of a call cannot drift apart.

/** The origin the samples are written with; the page shows its own origin instead. */
export const SAMPLE_ORIGIN = 'https://mailvet.io';

/** Where a path takes the job id the examples read from the environment. */
const JOB_ID = '{JOB_ID}';

export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

export type Lang = 'node' | 'python' | 'php';

/** One call of the API, as every language's example makes it. */
export interface CallSpec {
  method: 'GET' | 'POST';
  /** The path under /v1; `{JOB_ID}` stands for the JOB_ID environment variable. */
  path: string;
  /** The JSON body. */
  body?: Json;
  /** The query string of the cURL command (the code examples build theirs). */
  query?: string;
  /** Extra request headers of the cURL command. */
  headers?: readonly string[];
  /** A multipart form field of the cURL command (-F), in place of a JSON body. */
  form?: string;
  /** The file the cURL command writes the answer to (-o). */
  output?: string;
}

/** `METHOD /v1/path` as the OpenAPI document names the operation. */
export function operationOf(call: CallSpec): string {
  return `${call.method} /v1${call.path.replace(JOB_ID, '{id}')}`;
}

const quote = (lang: Lang | 'json', s: string) => (lang === 'node' || lang === 'php' ? `'${s}'` : `"${s}"`);

/** A value written as a literal of the language (`json`: the body of a cURL -d). */
export function literal(lang: Lang | 'json', v: Json): string {
  if (typeof v === 'string') return quote(lang, v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return lang === 'python' ? (v ? 'True' : 'False') : String(v);
  if (v === null) return lang === 'python' ? 'None' : 'null';
  if (Array.isArray(v)) return `[${v.map((x: Json) => literal(lang, x)).join(', ')}]`;
  const entries = Object.entries(v as { readonly [key: string]: Json });
  if (lang === 'node') return `{ ${entries.map(([k, x]) => `${k}: ${literal(lang, x)}`).join(', ')} }`;
  if (lang === 'php') return `[${entries.map(([k, x]) => `'${k}' => ${literal(lang, x)}`).join(', ')}]`;
  return `{${entries.map(([k, x]) => `"${k}": ${literal(lang, x)}`).join(', ')}}`;
}

/** The path argument of a call; `withQuery` appends the query string the example built (`qs`). */
export function pathArg(lang: Lang, path: string, withQuery = false): string {
  const parts = path.split(JOB_ID);
  if (lang === 'node') {
    if (parts.length === 1 && !withQuery) return quote(lang, path);
    return `\`${parts.join('${process.env.JOB_ID}')}${withQuery ? '?${qs}' : ''}\``;
  }
  if (lang === 'python') return parts.length === 1 ? quote(lang, path) : `f"${parts.join("{os.environ['JOB_ID']}")}"`;
  const pieces: string[] = [];
  parts.forEach((part, i) => {
    const text = i === parts.length - 1 && withQuery ? `${part}?` : part;
    if (i > 0) pieces.push("getenv('JOB_ID')");
    if (text) pieces.push(quote(lang, text));
  });
  if (withQuery) pieces.push('$qs');
  return pieces.join(' . ');
}

/** `v.a.b` / `v['a']['b']` / `$v['a']['b']`. */
function field(lang: Lang, v: string, dotted: string): string {
  const keys = dotted.split('.');
  if (lang === 'node') return [v, ...keys].join('.');
  return `${lang === 'php' ? '$' : ''}${v}${keys.map((k) => `['${k}']`).join('')}`;
}

/**
 * The statement that prints one line about `v`: in the template, `{a.b}` is a field of `v` and
 * `{list|join}` a list joined with ", ".
 */
export function say(lang: Lang, v: string, template: string): string {
  const text = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}|]+)(\|join)?\}$/.exec(part);
      if (!m) return part;
      const f = field(lang, v, m[1]!);
      if (lang === 'node') return m[2] ? `\${${f}.join(', ')}` : `\${${f}}`;
      if (lang === 'python') return m[2] ? `{', '.join(${f})}` : `{${f}}`;
      return m[2] ? `" . implode(', ', ${f}) . "` : `{${f}}`;
    })
    .join('');
  if (lang === 'node') return `console.log(\`${text}\`);`;
  if (lang === 'python') return `print(f"${text}")`;
  return `echo "${text}\\n";`;
}

/** `v = call(…)` in the language, with the helper its header defines. */
export function callLine(lang: Lang, v: string, call: CallSpec): string {
  const args = [pathArg(lang, call.path)];
  if (call.body !== undefined) args.push(lang === 'python' ? `json=${literal(lang, call.body)}` : literal(lang, call.body));
  if (lang === 'node') return `const ${v} = await call('${call.method}', ${args.join(', ')});`;
  if (lang === 'python') return `${v} = call("${call.method}", ${args.join(', ')})`;
  return `$${v} = mailvet('${call.method}', ${args.join(', ')});`;
}

/** The cURL command of a call. */
export function curlOf(call: CallSpec): string {
  const url = `${SAMPLE_ORIGIN}/v1${call.path.replace(JOB_ID, '$JOB_ID')}${call.query ? `?${call.query}` : ''}`;
  const target = call.query ? `"${url}"` : url;
  const start = ['curl -sS --fail-with-body', call.method === 'GET' ? '' : `-X ${call.method}`, call.output ? `-o ${call.output}` : target].filter(Boolean);
  const lines = [start.join(' '), ...(call.output ? [target] : []), '-H "Authorization: Bearer $MAILVET_API_KEY"'];
  if (call.body !== undefined) lines.push('-H "Content-Type: application/json"');
  for (const h of call.headers ?? []) lines.push(`-H "${h}"`);
  if (call.body !== undefined) lines.push(`-d '${literal('json', call.body)}'`);
  if (call.form) lines.push(`-F "${call.form}"`);
  return lines.join(' \\\n  ');
}

/** A list endpoint read page by page: `limit` per page, `next_cursor` passed back until it is null. */
export interface PagedList {
  path: string;
  /** The array of each page (`results`, `jobs`) and the name of one item in the loop. */
  items: string;
  item: string;
  /** What is printed for one item (see `say`). */
  line: string;
}

/** Every line of `code` indented by `by`. */
export const indent = (code: string, by: string) =>
  code
    .split('\n')
    .map((l) => by + l)
    .join('\n');

/** The code that reads every page of a list, prints a line per item and the count at the end. */
export function pagedCode(lang: Lang, list: PagedList): string {
  const { items, item } = list;
  if (lang === 'node') {
    return `let cursor = null;
let count = 0;
do {
  const qs = new URLSearchParams({ limit: '2', ...(cursor ? { cursor } : {}) });
  const page = await call('GET', ${pathArg(lang, list.path, true)});
  for (const ${item} of page.${items}) ${say(lang, item, list.line)}
  count += page.${items}.length;
  cursor = page.next_cursor;
} while (cursor);
console.log(\`\${count} ${items}\`);`;
  }
  if (lang === 'python') {
    return `cursor, count = None, 0
while True:
    params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
    page = call("GET", ${pathArg(lang, list.path)}, params=params)
    for ${item} in page["${items}"]:
${indent(say(lang, item, list.line), '        ')}
    count += len(page["${items}"])
    cursor = page["next_cursor"]
    if not cursor:
        break
print(f"{count} ${items}")`;
  }
  return `$cursor = null;
$count = 0;
do {
    $qs = http_build_query(['limit' => 2] + ($cursor ? ['cursor' => $cursor] : []));
    $page = mailvet('GET', ${pathArg(lang, list.path, true)});
    foreach ($page['${items}'] as $${item}) ${say(lang, item, list.line)}
    $count += count($page['${items}']);
    $cursor = $page['next_cursor'];
} while ($cursor);
echo "$count ${items}\\n";`;
}

/** PHP: send the request `$ch` is set up for, read the answer into `$result`, stop on an error answer. */
export function phpExchange({ options, timeout, result, raw = false }: { options: readonly string[]; timeout: number; result: string; raw?: boolean }): string {
  const err = raw ? 'err' : result;
  return [
    'curl_setopt_array($ch, [',
    ...[...options, 'CURLOPT_RETURNTRANSFER => true', `CURLOPT_TIMEOUT => ${timeout}`].map((o) => `    ${o},`),
    ']);',
    raw ? `$${result} = curl_exec($ch);` : `$${result} = json_decode(curl_exec($ch), true);`,
    '$status = curl_getinfo($ch, CURLINFO_HTTP_CODE);',
    'curl_close($ch);',
    'if ($status >= 400) { // errors are application/problem+json',
    ...(raw ? [`    $err = json_decode($${result}, true);`] : []),
    `    throw new RuntimeException("Mailvet $status {$${err}['code']}: {$${err}['detail']}");`,
    '}',
  ].join('\n');
}
