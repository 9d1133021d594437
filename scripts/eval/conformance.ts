/**
 * The evaluation's check that every answer is what the platform documents: the body of each response (and of the
 * task status a 202 is polled through) must validate against the response schema /openapi.json gives for its
 * route, method and status. An answer that does not is a failed piece, like a 5xx.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { standaloneSchema } from '../../api/kernel/openapi-passes';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components?: unknown;
}

const docs = new Map<string, Promise<Doc>>();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction | null>();

/** The document's route template a concrete path belongs to (`/api/x/{id}` for `/api/x/42`). */
function templateOf(doc: Doc, path: string): string | undefined {
  const bare = path.split('?')[0];
  if (doc.paths[bare]) return bare;
  return Object.keys(doc.paths).find((t) =>
    new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  );
}

/** Why `body` is not the documented answer of `method path` with `status`; undefined when it is. */
export async function undocumentedAnswer(
  base: string,
  method: string,
  path: string,
  status: number,
  body: unknown,
): Promise<string | undefined> {
  if (!docs.has(base))
    docs.set(
      base,
      fetch(`${base}/openapi.json`).then((r) => r.json() as Promise<Doc>),
    );
  const doc = await docs.get(base)!;
  const template = templateOf(doc, path);
  if (!template) return `${method} ${path} is not in the document`;
  const key = `${method.toLowerCase()} ${template} ${status}`;
  if (!validators.has(key)) {
    const schema =
      doc.paths[template]?.[method.toLowerCase()]?.responses?.[String(status)]?.content?.['application/json']?.schema;
    validators.set(key, schema ? ajv.compile(standaloneSchema(doc, schema)) : null);
  }
  const v = validators.get(key);
  if (v === null) return `${key}: no documented JSON answer`;
  if (v && !v(body)) return `${key}: ${ajv.errorsText(v.errors)}`;
  return undefined;
}
