/**
 * Answers checked against the platform's own OpenAPI document: the response schema /openapi.json documents for the
 * answer's route, method and status (its `$ref`s to the named components followed) must accept the body.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonResponse } from './http';
import { standaloneSchema } from '../../api/kernel/openapi-passes';

/** `conforms(method, route, res)`: returns `res` when its body validates, throws naming the first errors otherwise. */
export type Conforms = (method: string, route: string, res: JsonResponse) => JsonResponse;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function answerSchemas(doc: any): Conforms {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  return (method, route, res) => {
    const key = `${method} ${route} ${res.status}`;
    let v = validators.get(key);
    if (!v) {
      const schema = doc.paths[route]?.[method]?.responses?.[String(res.status)]?.content?.['application/json']?.schema;
      expect([key, !!schema]).toEqual([key, true]);
      v = ajv.compile(standaloneSchema(doc, schema));
      validators.set(key, v);
    }
    if (!v(res.body))
      throw new Error(`${key}: ${ajv.errorsText(v.errors)} in ${JSON.stringify(res.body).slice(0, 2000)}`);
    return res;
  };
}

/**
 * `conformsAsWebhook(body)`: returns the delivered body when the `webhooks` section of the document accepts it for
 * its event (`event_type`, or the calendar's `event`), throws naming the first errors otherwise.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function webhookSchemas(doc: any): <T>(body: T) => T {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  return (body) => {
    const b = body as { event_type?: string; event?: string };
    const name = b.event_type ?? b.event ?? '';
    let v = validators.get(name);
    if (!v) {
      const schema = doc.webhooks?.[name]?.post?.requestBody?.content?.['application/json']?.schema;
      expect([name, !!schema]).toEqual([name, true]);
      v = ajv.compile(standaloneSchema(doc, schema));
      validators.set(name, v);
    }
    if (!v(body))
      throw new Error(`webhook ${name}: ${ajv.errorsText(v.errors)} in ${JSON.stringify(body).slice(0, 2000)}`);
    return body;
  };
}
