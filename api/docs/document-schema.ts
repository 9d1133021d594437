/**
 * The shape of GET /openapi.json: the OpenAPI 3.1 document api/kernel/openapi.ts builds (only the parts it writes;
 * the JSON Schemas inside are shown as free-form objects). No `$ref` keyword here: response schemas are inline.
 */
import type { JsonSchema } from '../kernel/envelopes/common';
import { allRequired, arr, bool, mapOf, withRequired } from '../kernel/schema';

const S: JsonSchema = { type: 'string' };
const jsonSchema = mapOf({}, { description: 'a JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1)' });
const header = withRequired({ description: S, schema: jsonSchema }, [], {
  description: 'a header: inline, or a reference to one of components.headers',
});
const content = mapOf(allRequired({ schema: jsonSchema }), { description: 'by media type' });
const response = withRequired({ description: S, headers: mapOf(header, { description: 'by header name' }), content }, [
  'description',
]);
const parameter = withRequired(
  { name: S, in: { enum: ['path', 'query', 'header'] }, required: bool, schema: jsonSchema, description: S },
  ['name', 'in', 'required', 'schema'],
);
const operation = withRequired(
  {
    operationId: S,
    summary: S,
    description: S,
    tags: arr(S),
    'x-route-family': { ...S, description: 'the route family: its envelopes, credentials and error body' },
    'x-rate-scheme': { ...S, description: 'the rate scheme counted, when not the family default' },
    'x-required-role': { ...S, description: 'the role the caller needs (admin)' },
    security: arr(
      mapOf(arr(S), {
        description: 'a security scheme name and the OAuth scopes it needs; `{}`: no credential needed',
      }),
    ),
    parameters: arr(parameter),
    requestBody: withRequired({ required: bool, content }, ['content']),
    responses: mapOf(response, { description: 'by HTTP status code' }),
  },
  ['operationId', 'summary', 'tags', 'security', 'parameters', 'responses'],
);
const pathItem = mapOf(operation, { description: 'operations by HTTP method (lower case)' });
const tag = withRequired({ name: S, description: S }, ['name']);

export const openApiDocumentSchema: JsonSchema = withRequired(
  {
    openapi: { type: 'string', const: '3.1.0' },
    info: withRequired(
      { title: S, version: S, description: S, license: withRequired({ name: S, identifier: S }, ['name']) },
      ['title', 'version'],
    ),
    servers: arr(withRequired({ url: S, description: S }, ['url'])),
    tags: arr(tag),
    'x-tagGroups': arr(allRequired({ name: S, tags: arr(S) }), { description: 'the tags grouped by document (Redoc)' }),
    paths: mapOf(pathItem, { description: 'by path' }),
    webhooks: mapOf(pathItem, { description: 'the deliveries the platform makes, by event name' }),
    components: withRequired(
      {
        securitySchemes: mapOf(
          withRequired(
            {
              type: S,
              scheme: S,
              bearerFormat: S,
              description: S,
              flows: withRequired(
                {
                  authorizationCode: allRequired({
                    authorizationUrl: S,
                    tokenUrl: S,
                    refreshUrl: S,
                    scopes: mapOf(S, { description: 'scope name → what it allows' }),
                  }),
                },
                [],
              ),
            },
            ['type'],
          ),
        ),
        schemas: mapOf(jsonSchema),
        headers: mapOf(header),
      },
      [],
    ),
  },
  ['openapi', 'info', 'paths', 'components'],
);
