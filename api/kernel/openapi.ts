/**
 * The OpenAPI 3.1 document, generated from the route registry: the same
 * JSON Schemas that ajv validates with. Every operation lists its security
 * (by family), parameters, request body, success response wrapped in the
 * family's envelope, and the family's error responses.
 */
import { TAG_GROUPS, TAGS } from './openapi-tags';
import { ENVELOPES } from './envelopes';
import { CREDENTIALS, Family, FAMILIES } from './families';
import { familyOfRoute, operationIdOf, RouteDef } from './registry';
import { SCOPE_DESCRIPTIONS } from '../../domain/calendar/permissions';
import { asResponse, closeObjects, SIZE_BOUNDS } from './schema';
import { documentedSchema, forGenerators, hoistNamed, type Schema } from './openapi-passes';
import { errorResponses, parameters, RESPONSE_HEADERS, withResponseHeaders } from './openapi-operation';
import { webhooksSection } from './openapi-webhooks';

const SECURITY_SCHEME: Record<string, string> = { api_key: 'apiKey', session: 'sessionToken', oauth: 'oauth2' };
const NOT_MODIFIED =
  'Not modified: the data is the one of the ETag given in If-None-Match (no body; ETag and Retry-After as on 200)';

export interface OpenApiOptions {
  title?: string;
  version: string;
  serverUrl?: string;
  /**
   * Real answers to show, by `<method> <path> <status>` (api/docs/openapi-examples.json, from a test run:
   * scripts/openapi-examples.ts): each becomes its JSON response's `example`.
   */
  examples?: Record<string, unknown>;
}

export function buildOpenApi(routes: RouteDef[], opts: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedFamilies = new Set<Family>();
  const usedSchemes = new Set<string>();
  for (const route of routes) {
    // Response schemas often reuse request pieces; the size limits of what a client may send do not bound answers.
    const family = familyOfRoute(route);
    const envelope = ENVELOPES[family];
    const responses: Record<string, unknown> = {};
    for (const [status, resp] of Object.entries(route.responses)) {
      if (resp.contentType)
        responses[status] = {
          description: resp.description,
          content: Object.fromEntries(
            // A binary answer is also served as application/octet-stream to a client that asks for it (rawContentType
            // in registry.ts), listed first: generators that know no other binary type read it as bytes.
            [
              ...((resp.data as Schema | undefined)?.format === 'binary' ? ['application/octet-stream'] : []),
              resp.contentType,
            ]
              .flat()
              .filter((t, i, all) => all.indexOf(t) === i)
              .map((t) => [t, { schema: asResponse(resp.data ?? {}, SIZE_BOUNDS) }]),
          ),
        };
      else if (status === '204') responses[status] = { description: resp.description };
      else if (status.startsWith('3'))
        responses[status] = {
          description: resp.description,
          headers: { Location: { description: 'Where the client goes next', schema: { type: 'string' } } },
        };
      else
        responses[status] = {
          description: resp.description,
          content: {
            'application/json': {
              schema:
                route.successBody === 'bare'
                  ? asResponse(resp.data ?? {}, SIZE_BOUNDS)
                  : envelope.successSchema(resp.data && asResponse(resp.data, SIZE_BOUNDS), !!resp.message),
            },
          },
        };
    }
    for (const [status, resp] of Object.entries(responses)) {
      const media = (resp as { content?: Record<string, Schema> }).content?.['application/json'];
      const example = opts.examples?.[`${route.method} ${route.path} ${status}`];
      if (media && example !== undefined) media.example = example;
    }
    if (route.etag) responses['304'] = { description: NOT_MODIFIED };
    Object.assign(responses, errorResponses(route, family));
    for (const [status, resp] of Object.entries(responses)) withResponseHeaders(route, family, status, resp as Schema);
    // An OAuth access token needs the route's scope (RouteDef.scope); other credentials carry no scopes.
    // A route without a scope takes no access token (the OAuth client and authorize routes refuse one).
    const security = CREDENTIALS[family]
      .filter((k) => k !== 'oauth' || route.scope)
      .map((k) => ({ [SECURITY_SCHEME[k]]: k === 'oauth' ? [route.scope] : [] }));
    usedFamilies.add(family);
    usedFamilies.add('subscription'); // every family's 429 may carry the subscription body (plan limits)
    for (const k of CREDENTIALS[family]) usedSchemes.add(SECURITY_SCHEME[k]);
    paths[route.path] ??= {};
    paths[route.path][route.method] = {
      operationId: operationIdOf(route),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags ?? [family],
      'x-route-family': family,
      ...(route.rateScheme ? { 'x-rate-scheme': route.rateScheme } : {}),
      security: route.auth === 'public' ? [{}, ...security] : security,
      ...(route.auth === 'admin' ? { 'x-required-role': 'admin' } : {}),
      parameters: parameters(route),
      ...(route.request?.body
        ? {
            requestBody: {
              required: true,
              content: {
                [route.bodyContentType ?? 'application/json']: {
                  schema: documentedSchema(closeObjects(route.request.body)),
                },
              },
            },
          }
        : {}),
      responses,
    };
  }
  const named: Record<string, unknown> = {};
  const document = hoistNamed(
    forGenerators({
      openapi: '3.1.0',
      info: {
        title: opts.title ?? 'AI content platform API',
        version: opts.version,
        description:
          'Route families, envelopes, authentication and rate limits: see docs/api.md. Every request passes authentication, rate limiting, validation and routing, in that order.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // The base URL clients use (PUBLIC_BASE_URL, else the API's own address); `/` = where this document was fetched from.
      servers: [{ url: opts.serverUrl ?? '/', description: 'This API' }],
      // Described and in the specification's order (api/kernel/openapi-tags.ts); groups by document for renderers.
      tags: TAGS,
      'x-tagGroups': TAG_GROUPS.map((g) => ({ name: g.name, tags: g.tags.map((t) => t.name) })),
      paths,
      webhooks: webhooksSection(),
      components: {
        // Only what the paths use: a family with no route yet adds neither its error body nor its credential scheme.
        securitySchemes: Object.fromEntries(
          Object.entries({
            apiKey: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'cp_live_<prefix>_<secret> | cp_test_<prefix>_<secret>',
              description: 'API key (Authorization: Bearer <API_KEY>)',
            },
            sessionToken: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'cps_<id>_<secret>',
              description: 'Session token from POST /api/settings/sessions (backlink outreach)',
            },
            oauth2: {
              type: 'oauth2',
              description: 'OAuth 2.0 access token of the calendar family (cpo_<id>_<secret>)',
              flows: {
                authorizationCode: {
                  authorizationUrl: '/v1/calendar/oauth/authorize',
                  tokenUrl: '/v1/calendar/oauth/token',
                  refreshUrl: '/v1/calendar/oauth/token',
                  scopes: SCOPE_DESCRIPTIONS,
                },
              },
            },
          }).filter(([name]) => usedSchemes.has(name)),
        ),
        schemas: Object.fromEntries(
          FAMILIES.filter((f) => usedFamilies.has(f)).map((f) => [`${f}_error`, ENVELOPES[f].errorSchema]),
        ),
        headers: RESPONSE_HEADERS,
      },
    }),
    named,
  );
  // The named shapes beside the error bodies, in name order.
  const components = document.components as { schemas: Record<string, unknown> };
  components.schemas = Object.fromEntries(
    Object.entries({ ...components.schemas, ...named }).sort(([a], [b]) => a.localeCompare(b)),
  );
  return document;
}
