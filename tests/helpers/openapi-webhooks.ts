// Checks a webhook body we really sent against the schema the OpenAPI document publishes for its
// event (`webhooks.<event>.post.requestBody`), with a JSON Schema 2020-12 validator — so the
// document describes what receivers get, not what the code meant to send.
import Ajv2020 from 'ajv/dist/2020';
import { openApiDocument } from '../../server/rest/openapi';

interface Doc {
  webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } }>;
  components?: { schemas?: Record<string, object> };
}

/** The validation errors of `body` (raw JSON) for `event`, or [] when it matches. */
export function webhookBodyProblems(event: string, body: string): string[] {
  const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:1'))) as Doc;
  const ref = doc.webhooks?.[event]?.post?.requestBody?.content?.['application/json']?.schema?.$ref;
  if (!ref) return [`the OpenAPI document has no webhook body for ${event}`];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile({ ...doc.components!.schemas![ref.slice(ref.lastIndexOf('/') + 1)], $defs: doc.components!.schemas });
  return validate(JSON.parse(body)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
