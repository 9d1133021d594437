/**
 * The shape of GET /openapi.json: the OpenAPI 3.1 document api/kernel/openapi.ts builds (only the parts it writes;
 * the JSON Schemas inside are shown as free-form objects). No `$ref` keyword here: response schemas are inline.
 */
import type { JsonSchema } from '../kernel/envelopes/common';
import { allRequired, anyString, arr, bool, mapOf, withRequired } from '../kernel/schema';

const jsonSchema = mapOf({}, { description: 'a JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1)' });
const header = withRequired({ description: anyString, schema: jsonSchema }, [], {
  description: 'a header: inline, or a reference to one of components.headers',
});
const content = mapOf(allRequired({ schema: jsonSchema }), { description: 'by media type' });
const response = withRequired(
  { description: anyString, headers: mapOf(header, { description: 'by header name' }), content },
  ['description'],
);
const parameter = withRequired(
  {
    name: anyString,
    in: { enum: ['path', 'query', 'header'] },
    required: bool,
    schema: jsonSchema,
    description: anyString,
  },
  ['name', 'in', 'required', 'schema'],
);
const operation = withRequired(
  {
    operationId: anyString,
    summary: anyString,
    description: anyString,
    tags: arr(anyString),
    'x-route-family': { ...anyString, description: 'the route family: its envelopes, credentials and error body' },
    'x-rate-scheme': { ...anyString, description: 'the rate scheme counted, when not the family default' },
    'x-required-role': { ...anyString, description: 'the role the caller needs (admin)' },
    security: arr(
      mapOf(arr(anyString), {
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
const tag = withRequired({ name: anyString, description: anyString }, ['name']);

export const openApiDocumentSchema: JsonSchema = withRequired(
  {
    openapi: { type: 'string', const: '3.1.0' },
    info: withRequired(
      {
        title: anyString,
        version: anyString,
        description: anyString,
        license: withRequired({ name: anyString, identifier: anyString }, ['name']),
      },
      ['title', 'version'],
    ),
    servers: arr(withRequired({ url: anyString, description: anyString }, ['url'])),
    tags: arr(tag),
    'x-tagGroups': arr(allRequired({ name: anyString, tags: arr(anyString) }), {
      description: 'the tags grouped by document (Redoc)',
    }),
    paths: mapOf(pathItem, { description: 'by path' }),
    webhooks: mapOf(pathItem, { description: 'the deliveries the platform makes, by event name' }),
    components: withRequired(
      {
        securitySchemes: mapOf(
          withRequired(
            {
              type: anyString,
              scheme: anyString,
              bearerFormat: anyString,
              description: anyString,
              flows: withRequired(
                {
                  authorizationCode: allRequired({
                    authorizationUrl: anyString,
                    tokenUrl: anyString,
                    refreshUrl: anyString,
                    scopes: mapOf(anyString, { description: 'scope name → what it allows' }),
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
