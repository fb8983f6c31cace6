// What a client generated from /v1/openapi.json shows of our errors: each error status's schema
// gives, as its examples, a code that this status really carries (contracts/error-codes.ts) and a
// message for it, not another status's (a 413 documented with the example code BAD_INPUT).
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../contracts/error-codes';
import { openApiDocument } from './openapi';

interface Schema {
  properties?: { code?: { example?: string }; message?: { example?: string } };
  example?: { code?: string; message?: string };
}

describe('the OpenAPI error schemas', () => {
  it('give each error status an example code of that status, in the property and the schema example alike', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>>;
      components: { schemas: Record<string, Schema> };
    };
    const seen = new Map<string, Set<number>>();
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const ref = response.content?.['application/problem+json']?.schema?.$ref;
          if (Number(status) < 400 || !ref) continue;
          const id = ref.slice(ref.lastIndexOf('/') + 1);
          seen.set(id, (seen.get(id) ?? new Set()).add(Number(status)));
        }
      }
    }
    expect(seen.size).toBeGreaterThan(5);
    for (const [id, statuses] of seen) {
      const schema = doc.components.schemas[id]!;
      const code = schema.properties?.code?.example ?? '';
      const status = (ERROR_CODES as Record<string, { status: number }>)[code]?.status;
      expect([...statuses], `${id}: example code ${code}`).toContain(status);
      if (schema.example?.code !== undefined) expect(schema.example.code, id).toBe(code);
      if (schema.example?.message !== undefined) expect(schema.properties?.message?.example, id).toBe(schema.example.message);
    }
  });
});

describe('the OpenAPI times', () => {
  it('declares every *_at field a date-time, so generated clients read a time and validators check it', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as unknown;
    const untyped: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const props = (node as { properties?: Record<string, { format?: string; anyOf?: Array<{ format?: string }> }> }).properties;
      for (const [name, prop] of Object.entries(props ?? {})) {
        const formats = [prop.format, ...(prop.anyOf ?? []).map((b) => b.format)];
        if (name.endsWith('_at') && !formats.includes('date-time')) untyped.push(`${where}.${name}`);
      }
      for (const [k, v] of Object.entries(node)) walk(v, `${where}/${k}`);
    };
    walk(doc, '#');
    expect(untyped).toEqual([]);
  });
});

describe('the OpenAPI refusals of the HTTP edge', () => {
  it('documents on every operation the 408, 431 and 501 any request can get before a route reads it (417 on those with a body), as problem+json', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>>;
    };
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const status of method === 'post' ? ['408', '417', '431', '501'] : ['408', '431', '501']) {
          if (!op.responses[status]?.content?.['application/problem+json']?.schema?.$ref) missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the OpenAPI response headers', () => {
  it('declare Idempotent-Replayed on the POST answers only (a GET never replays), each operation its own', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const declared = Object.keys(response.headers ?? {}).includes('Idempotent-Replayed');
          if (declared !== (method === 'post')) wrong.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
