/**
 * The document's examples (api/docs/openapi-examples.json, real answers recorded in a test run and kept by
 * scripts/openapi-examples.ts): each names an operation and status of the document, is shown there as the
 * response's example, and is accepted by the response's schema — so an example never shows a shape the API no
 * longer answers. Every operation with a JSON success answer has one, but the few listed that cannot.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import EXAMPLES from '../../../api/docs/openapi-examples.json';
import { PLATFORM_ROUTES } from '../../../api/routes';
import { docsRoutes } from '../../../api/docs/routes';
import { buildOpenApi } from '../../../api/kernel/openapi';
import { standaloneSchema } from '../../../api/kernel/openapi-passes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;
const examples = EXAMPLES as Record<string, unknown>;
const routes = [...PLATFORM_ROUTES];
routes.push(...docsRoutes(() => routes));
const doc: Doc = buildOpenApi(routes, { version: 'test', examples });

/** The operations whose success answer is JSON, as `<method> <path>`. */
const jsonOperations = Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([p, ops]) =>
  Object.entries(ops)
    .filter(([, op]) =>
      Object.entries(op.responses as Record<string, Doc>).some(
        ([s, r]) => s.startsWith('2') && r.content?.['application/json'],
      ),
    )
    .map(([m]) => `${m} ${p}`),
);

describe('examples from real answers', () => {
  it('each is an answer the document gives for its operation and status, shown there', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const wrong: string[] = [];
    for (const [key, example] of Object.entries(examples)) {
      const [method, p, status] = key.split(' ');
      const media = doc.paths[p!]?.[method!]?.responses?.[status!]?.content?.['application/json'];
      if (!media) {
        wrong.push(`${key}: no such JSON answer in the document`);
        continue;
      }
      expect(media.example).toEqual(example);
      const v = ajv.compile(standaloneSchema(doc, media.schema));
      if (!v(example)) wrong.push(`${key}: ${ajv.errorsText(v.errors)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('carry no credential and no loopback address', () => {
    const text = JSON.stringify(examples);
    expect(text).not.toMatch(/127\.0\.0\.1|localhost:\d/);
    expect(text.match(/\b(?:cp_(?:live|test)|cps|cpo|cpr|whsec)_[A-Za-z0-9_-]{8,}/g) ?? []).toEqual(
      (text.match(/\b(?:cp_(?:live|test)|cps|cpo|cpr|whsec)_[A-Za-z0-9_-]{8,}/g) ?? []).filter((s) =>
        s.endsWith('_EXAMPLEONLY0123456789'),
      ),
    );
  });

  it('every operation with a JSON success answer has one, but those that cannot', () => {
    const covered = new Set(Object.keys(examples).map((k) => k.split(' ').slice(0, 2).join(' ')));
    // A new operation fails here until its answers are recorded: `npm run openapi:examples` (docs/api.md).
    expect(jsonOperations.filter((o) => !covered.has(o)).sort()).toEqual(Object.keys(WITHOUT_EXAMPLE).sort());
  });
});

/** Operations no test can get a success answer from, and why. */
const WITHOUT_EXAMPLE: Record<string, string> = {
  'post /api/podcast/dub/voices/clone': 'answers 503: no speech vendor with a cloning adapter exists',
  'get /api/podcast/dub/voices/{task_id}/result': 'no cloning task can exist (above)',
  'get /openapi.json': 'the document is not an example of itself',
};
