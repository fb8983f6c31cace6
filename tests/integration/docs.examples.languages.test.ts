// The Documentation page's examples are written from one description of each call
// (src/features/docs/example-languages.ts). docs.examples.test.ts runs the cURL, JavaScript and Node.js versions
// and compiles the Python ones (docs.examples.python.test.ts runs them); nothing runs the PHP ones here, so this checks that every language's
// version of an example calls the endpoint the example is filed under, and that bodies and printed
// lines are written in each language's own syntax.
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/features/docs/examples';
import { curlOf, literal, pathArg, say } from '../../src/features/docs/example-languages';

/** The code with the job id, however the language reads it, written `{id}`, and the API base dropped. */
function normalised(code: string): string {
  return code
    .replaceAll('${process.env.JOB_ID}', '{id}')
    .replaceAll('${JOB_ID}', '{id}')
    .replaceAll("{os.environ['JOB_ID']}", '{id}')
    .replaceAll('$JOB_ID', '{id}')
    .replace(/'\s*\.\s*getenv\('JOB_ID'\)(\s*\.\s*')?/g, '{id}')
    .replaceAll('https://mailvet.io/v1', '')
    .replaceAll('${BASE_URL}', '')
    .replaceAll('{BASE_URL}', '')
    .replaceAll("BASE_URL + '", "'");
}

describe('documentation examples in every language', () => {
  for (const example of EXAMPLES.filter((e) => e.operation !== null)) {
    it(`${example.id}: cURL, JavaScript, Node.js, Python and PHP call ${example.operation}`, () => {
      const [method, fullPath] = example.operation!.split(' ') as [string, string];
      const path = fullPath.replace(/^\/v1/, '');
      for (const [lang, code] of Object.entries({ curl: example.curl, javascript: example.javascript, node: example.node, python: example.python, php: example.php })) {
        expect(code, `${example.id} has a ${lang} version`).toBeTruthy();
        expect(normalised(code!), `${example.id} (${lang}) calls ${path}`).toMatch(new RegExp(`(['"\` ])${path.replace(/[{}]/g, '\\$&')}(['"\`?)]|$| \\\\)`, 'm'));
      }
      if (method === 'POST') expect(example.curl).toContain('-X POST');
      else expect(example.curl).not.toContain('-X ');
    });
  }

  it('writes a body as each language writes a literal', () => {
    const body = { emails: ['a@example.com', 'b@example.com'], strict: true, tag: null };
    expect(literal('node', body)).toBe("{ emails: ['a@example.com', 'b@example.com'], strict: true, tag: null }");
    expect(literal('python', body)).toBe('{"emails": ["a@example.com", "b@example.com"], "strict": True, "tag": None}');
    expect(literal('php', body)).toBe("['emails' => ['a@example.com', 'b@example.com'], 'strict' => true, 'tag' => null]");
    expect(JSON.parse(literal('json', body))).toEqual(body);
  });

  it('reads the job id from the environment in each language, with or without a query string', () => {
    expect(pathArg('node', '/jobs/{JOB_ID}/results', true)).toBe('`/jobs/${process.env.JOB_ID}/results?${qs}`');
    expect(pathArg('python', '/jobs/{JOB_ID}/results')).toBe(`f"/jobs/{os.environ['JOB_ID']}/results"`);
    expect(pathArg('php', '/jobs/{JOB_ID}')).toBe("'/jobs/' . getenv('JOB_ID')");
    expect(pathArg('php', '/jobs', true)).toBe("'/jobs?' . $qs");
    expect(curlOf({ method: 'GET', path: '/jobs/{JOB_ID}/results', query: 'limit=2' })).toBe(
      'curl -sS --fail-with-body "https://mailvet.io/v1/jobs/$JOB_ID/results?limit=2" \\\n  -H "Authorization: Bearer $MAILVET_API_KEY"',
    );
  });

  it('prints nested fields and joined lists in each language', () => {
    const line = '{plan}: key {key.key_prefix} ({key.scopes|join})';
    expect(say('node', 'a', line)).toBe("console.log(`${a.plan}: key ${a.key.key_prefix} (${a.key.scopes.join(', ')})`);");
    expect(say('python', 'a', line)).toBe(`print(f"{a['plan']}: key {a['key']['key_prefix']} ({', '.join(a['key']['scopes'])})")`);
    expect(say('php', 'a', line)).toBe(`echo "{$a['plan']}: key {$a['key']['key_prefix']} (" . implode(', ', $a['key']['scopes']) . ")\\n";`);
  });
});
