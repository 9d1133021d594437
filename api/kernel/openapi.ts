/**
 * The OpenAPI 3.1 document, generated from the route registry: the same
 * JSON Schemas that ajv validates with. Every operation lists its security
 * (by family), parameters, request body, success response wrapped in the
 * family's envelope, and the family's error responses.
 */
import { TEST_EVENT, WEBHOOK_NAMES } from '../../domain/webhooks/catalogue';
import { pascalOf } from './task-catalogue';
import { TAG_GROUPS, TAGS } from './openapi-tags';
import { ENVELOPES } from './envelopes';
import { CREDENTIALS, Family, FAMILIES } from './families';
import type { JsonSchema } from './envelopes/common';
import { familyOfRoute, operationIdOf, RouteDef } from './registry';
import { SCOPE_DESCRIPTIONS } from '../../domain/calendar/permissions';
import { IDEMPOTENCY_HEADER, isIdempotentRoute } from './idempotency';
import { anyString, asResponse, closeObjects, int, named, obj, SIZE_BOUNDS } from './schema';

const SECURITY_SCHEME: Record<string, string> = { api_key: 'apiKey', session: 'sessionToken', oauth: 'oauth2' };
const NOT_MODIFIED =
  'Not modified: the data is the one of the ETag given in If-None-Match (no body; ETag and Retry-After as on 200)';
const errorRef = (f: Family) => ({ $ref: `#/components/schemas/${f}_error` });

function parameters(route: RouteDef) {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ['path', route.request?.params],
    ['query', route.request?.query],
  ] as const) {
    const s = schema as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
    for (const [name, prop] of Object.entries(s?.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (s?.required ?? []).includes(name),
        schema: prop,
        ...(prop.description ? { description: prop.description } : {}),
      });
    }
  }
  if (route.etag)
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 1024 },
      description: 'The ETag of the last answer seen: unchanged data is answered 304 without a body',
    });
  if (isIdempotentRoute(route, familyOfRoute(route)))
    out.push({
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      description:
        'Same key and same body within 24 h: the first answer again (Idempotent-Replayed: true); same key, different body: 409',
    });
  return out;
}

function errorResponses(route: RouteDef, family: Family) {
  const e = (description: string) => ({ description, content: { 'application/json': { schema: errorRef(family) } } });
  const r: Record<string, unknown> = {};
  if (route.request?.body || route.request?.query || route.request?.params)
    r[family === 'outreach' ? '422' : '400'] = e(
      'Invalid request: wrong type, missing required field or bound (names the field path)',
    );
  r['401'] = e(route.auth === 'public' ? 'A credential was sent and is invalid' : 'Missing or invalid credential');
  if (route.auth === 'admin') r['403'] = e('The caller is not an administrator');
  if (route.request?.params || route.ownerParam) r['404'] = e("Not found (or not the caller's)");
  if (['post', 'put', 'patch'].includes(route.method)) r['413'] = e('Body over the size limit');
  // Every write is decided on the state it read; a concurrent change, or a state the request conflicts with, is 409.
  if (route.method !== 'get')
    r['409'] = e('Conflict: changed concurrently (retry), or the request conflicts with the current state');
  // A plan limit is refused in the subscription body (UsageLimitExceededException), except in the developer family,
  // which keeps its own envelope (error.code UsageLimitExceededException; api/kernel/errors.ts).
  const ownBody = family === 'subscription' || family === 'developer';
  r['429'] = {
    description: 'Rate limit exceeded (see Retry-After), or a plan limit reached (UsageLimitExceededException)',
    content: {
      'application/json': {
        schema: ownBody ? errorRef(family) : { anyOf: [errorRef(family), errorRef('subscription')] },
      },
    },
  };
  r['500'] = e('Unexpected error: generic message and request id');
  const idem = 'Idempotency-Key already used with a different request, or its first request is still running';
  if (isIdempotentRoute(route, family)) r['409'] = e(idem);
  // What the route itself declares it can answer besides (409 conflicts, 503 without Temporal, ...).
  for (const [status, description] of Object.entries(route.errors ?? {})) {
    // A route's own words for 429 keep the body the kernel answers with (the family's or a plan limit's).
    if (status === '429') r['429'] = { ...(r['429'] as object), description };
    else
      r[status] = e(status === '409' && isIdempotentRoute(route, family) ? `${description}; or: ${idem}` : description);
  }
  return r;
}

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

type Schema = Record<string, unknown>;

/**
 * The request schema as the document shows it. Validation (ajv) uses `allOf` of `if {P: const v} then S` for a
 * body whose fields depend on a kind field (precise errors for the kind given); the document shows the same rule as
 * `oneOf` of one branch per kind, which generators and readers understand better (and which accepts the same bodies:
 * the kinds' consts are distinct, so exactly one branch can match).
 */
export function documentedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(documentedSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(Object.entries(schema as Schema).map(([k, v]) => [k, documentedSchema(v)])) as Schema;
  const branches = node.allOf as Schema[] | undefined;
  const kindOf = (b: Schema) => {
    const props = (b.if as Schema | undefined)?.properties as Record<string, Schema> | undefined;
    const keys = props ? Object.keys(props) : [];
    return keys.length === 1 && 'const' in props![keys[0]] && b.then && Object.keys(b).length === 2
      ? { field: keys[0], value: props![keys[0]].const, then: b.then as Schema }
      : undefined;
  };
  const kinds = Array.isArray(branches) ? branches.map(kindOf) : [];
  if (!kinds.length || kinds.some((k) => !k || k.field !== kinds[0]!.field)) return node;
  const { allOf: _rule, ...rest } = node;
  return {
    ...rest,
    oneOf: kinds.map((k) => ({
      ...k!.then,
      properties: { ...((k!.then.properties as Schema) ?? {}), [k!.field]: { const: k!.value } },
      required: [...new Set([...((k!.then.required as string[]) ?? []), k!.field])],
    })),
  };
}

/** `names` with each repeat numbered in order (`X`, `X_2`, `X_3`): member names and operation ids that must differ. */
function distinctNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((base) => {
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

/** The constant name a client generator gives an enum value (`content.generated` and `content_generated`: CONTENT_GENERATED). */
const enumConstant = (v: string) =>
  v
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase() || 'VALUE';

/**
 * `x-enum-varnames` (the member names openapi-python-client, openapi-generator and others use) on every string enum
 * whose values would get one name twice — the webhook events list both `content.generated` and the spec's
 * `content_generated` — so generated clients build (a repeated name made openapi-python-client stop). The first value
 * keeps the plain name; a later one that repeats it gets `_2`, `_3`, … in document order.
 */
export function withEnumVarnames<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withEnumVarnames) as T;
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withEnumVarnames(v)])) as Schema;
  const values = out.enum;
  if (Array.isArray(values) && values.length && values.every((v) => typeof v === 'string')) {
    const names = distinctNames((values as string[]).map(enumConstant));
    if (names.some((x, i) => x !== enumConstant(values[i] as string))) out['x-enum-varnames'] = names;
  }
  return out as T;
}

/**
 * An object schema with its own `properties` beside a `oneOf` of object branches (a writer's answer: the common
 * fields, and the content of each kind) has each branch carry the common properties and required fields itself.
 * It accepts the same documents; client generators read each branch as a whole type (openapi-python-client ignored
 * the common fields of such a schema, so a generated client lost `text`, `task_id`, …).
 */
export function foldIntoBranches<T>(node: T): T {
  if (Array.isArray(node)) return node.map(foldIntoBranches) as T;
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, foldIntoBranches(v)])) as Schema;
  const branches = out.oneOf as Schema[] | undefined;
  const props = out.properties as Record<string, unknown> | undefined;
  if (!Array.isArray(branches) || !props || branches.some((b) => !b || typeof b !== 'object' || '$ref' in b))
    return out as T;
  const { properties: _p, required, additionalProperties, ...rest } = out;
  return {
    ...rest,
    oneOf: branches.map((b) => ({
      type: 'object',
      ...b,
      properties: { ...props, ...((b.properties as Record<string, unknown>) ?? {}) },
      required: [...new Set([...((required as string[]) ?? []), ...((b.required as string[]) ?? [])])],
      ...(additionalProperties !== undefined && b.additionalProperties === undefined ? { additionalProperties } : {}),
    })),
  } as T;
}

/** The document as client generators read it best (the same documents valid): see the two passes. */
export const forGenerators = <T>(doc: T): T => withEnumVarnames(foldIntoBranches(doc));

/** JSON with object keys sorted: two schemas are one shape when these are equal. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x as Schema)
            .sort()
            .map((k) => [k, (x as Schema)[k]]),
        )
      : x,
  );

/**
 * Every schema named with `named()` (api/kernel/schema.ts: the `x-component` mark) moves to `components.schemas`
 * under its name, once, and each place that used it refers to it (`$ref`, keeping a description of its own beside
 * it). Innermost first, so a named shape inside another is referred to from the component too. A name given to two
 * different shapes is a programming error: the build fails naming it.
 */
export function hoistNamed<T>(doc: T, schemas: Record<string, unknown>): T {
  const shapes = new Map<string, string>();
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v)])) as Schema;
    const name = out['x-component'];
    if (typeof name !== 'string') return out;
    const { 'x-component': _mark, description, ...shape } = out;
    const key = canonical(shape);
    const known = shapes.get(name);
    if (known !== undefined && known !== key) throw new Error(`OpenAPI: two different schemas are named ${name}`);
    if (known === undefined) {
      shapes.set(name, key);
      schemas[name] = shape;
    }
    return { $ref: `#/components/schemas/${name}`, ...(description ? { description } : {}) };
  };
  return visit(doc) as T;
}

/**
 * A schema of the document (a response's, say) as a standalone JSON Schema that ajv compiles: its `$ref`s into
 * `components` resolve within it.
 */
export const standaloneSchema = (doc: { components?: unknown }, schema: unknown): Record<string, unknown> => ({
  allOf: [schema],
  components: doc.components,
});

/** The response headers the platform sends (api/app.ts, rate-limit.ts, errors.ts, tasks.ts, conditional.ts, idempotency.ts). */
const textHeader = (description: string) => ({ description, schema: { type: 'string' } });
const secondsHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const RESPONSE_HEADERS: Record<string, Schema> = {
  'X-Request-Id': textHeader(
    'The id of this request (a well-formed incoming X-Request-Id is kept); logs and support use it',
  ),
  'RateLimit-Policy': textHeader(
    'The rate windows of the caller\'s plan for this route\'s scheme: `"<window>";q=<limit>;w=<seconds>`, …',
  ),
  RateLimit: textHeader('The binding window now: `"<window>";r=<remaining>;t=<seconds until it resets>`'),
  'X-RateLimit-Limit': secondsHeader('Calendar family: calls allowed in the binding window'),
  'X-RateLimit-Remaining': secondsHeader('Calendar family: calls left in it'),
  'X-RateLimit-Reset': secondsHeader('Calendar family: when it resets (Unix seconds)'),
  'X-RateLimit-Retry-After': secondsHeader(
    'Calendar family: seconds until a call is allowed again (0 while calls remain)',
  ),
  'Retry-After': secondsHeader('Seconds to wait before trying again (or polling again)'),
  Location: textHeader("The task's status URL, to poll"),
  ETag: textHeader('Weak tag of the record; send it as If-None-Match for a 304 while unchanged'),
  'Idempotent-Replayed': {
    description: 'Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { const: 'true' },
  },
  'WWW-Authenticate': textHeader('The credential scheme: Bearer'),
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Documents on one response the headers the platform sends with it. */
function withResponseHeaders(route: RouteDef, family: Family, status: string, resp: Schema): void {
  const names = ['X-Request-Id'];
  // Rate limiting follows authentication: a 401 is answered before it, a public route's call by no plan.
  if (route.auth !== 'public' && status !== '401') {
    names.push('RateLimit-Policy', 'RateLimit');
    if (family === 'calendar')
      names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Retry-After');
  }
  if (status === '429') names.push('Retry-After');
  if (status === '401') names.push('WWW-Authenticate');
  const data = route.responses[status as unknown as keyof typeof route.responses] as { data?: Schema } | undefined;
  if (status === '202' && (data?.data?.properties as Record<string, unknown> | undefined)?.status_url)
    names.push('Location', 'Retry-After');
  if (route.etag && (status === '200' || status === '304')) names.push('ETag');
  if (route.etag && status === '200') names.push('Retry-After');
  if (status.startsWith('2') && isIdempotentRoute(route, family)) names.push('Idempotent-Replayed');
  resp.headers = {
    ...((resp.headers as Schema | undefined) ?? {}),
    ...Object.fromEntries(names.map((n) => [n, header(n)])),
  };
}

/**
 * What a webhook body's `data` carries, by event (domain/webhooks/catalogue.ts, WEBHOOK_RULES): a finished task
 * (`task_id`, `task_type`, and the task type's typed `result` of the task catalogue, a branch per type), an SEO
 * analysis, an integration action, a quota alert, the test ping, or a calendar event's figures.
 */
function webhookData(name: string): Schema {
  // The result as the task's workflow recorded it: the fields of its type's `<Type>Result`, before what status routes
  // add when they show it (file URLs, the blog results' `success`), so not typed by it.
  const task = (): Schema =>
    named(
      'TaskCompletedData',
      obj({
        task_id: anyString,
        task_type: { ...anyString, description: 'The task type (the task catalogue: `<Type>Task` in components)' },
        result: {
          type: 'object',
          additionalProperties: {},
          description:
            "The task's result as recorded: the fields of its type's `<Type>Result`, without the file URLs and `success` its status route adds",
        },
      }),
    );
  const calendar = (extra: Record<string, unknown>, required: string[] = []): Schema =>
    named(
      name === 'event.performance_updated' || name === 'calendar.analytics_ready'
        ? 'CalendarPerformanceData'
        : `CalendarEvent${pascalOf(name.split('.')[1]!)}Data`,
      {
        ...obj(
          {
            calendar_id: anyString,
            event_id: anyString,
            platform: anyString,
            published_at: { type: ['string', 'null'], format: 'date-time' },
            performance_initial: {
              anyOf: [obj({ impressions: int, engagements: int }), { type: 'null' }],
              description: 'The first figures recorded (null until then)',
            },
            ...extra,
          },
          ['calendar_id', 'event_id', 'platform', 'published_at', 'performance_initial', ...required],
        ),
      },
    );
  const seo = named(
    'SeoAnalysisData',
    obj({
      analysis_id: anyString,
      route: anyString,
      seo_score: { type: 'number' },
      keywords: { type: 'array', items: anyString },
      word_count: int,
      recommendations: { ...int, description: 'How many recommendations the analysis made' },
    }),
  );
  const status = { type: 'string', description: "The event's status" };
  switch (name) {
    case 'content.generated':
    case 'content_generated':
    case 'research_complete':
    case 'strategy.updated':
      return task();
    case 'seo.analysis.completed':
    case 'seo_analysis_complete':
      return seo;
    case 'user_action':
      return obj({
        action_id: anyString,
        integration: { ...anyString, description: '`search_console`, `performance_import` or `seo_analyzer`' },
        action: { ...anyString, description: '`connected`, `disconnected`, `imported`, `synced` or `analyzed`' },
        route: { ...anyString, description: 'The route the user called' },
        details: { type: 'object', additionalProperties: {}, description: 'What the action concerned, by name' },
      });
    case 'quota.warning':
      return obj({
        alert_key: anyString,
        title: anyString,
        message: anyString,
        severity: { enum: ['info', 'warning', 'critical'] },
        alert_type: { enum: ['usage_threshold', 'cost_threshold'] },
        billing_period: anyString,
      });
    case TEST_EVENT:
      return obj({ endpoint_id: anyString, message: anyString });
    case 'event.created':
      return calendar({ status }, ['status']);
    case 'event.updated':
      return calendar({
        status,
        previous_status: status,
        changed: { type: 'array', items: anyString, description: 'The fields the change set' },
        approved: { type: 'boolean' },
        failure_code: anyString,
      });
    case 'event.published':
      return calendar({ mode: { enum: ['local', 'platform'] } }, ['mode']);
    default:
      return calendar({ measured_at: { type: 'string', format: 'date-time' } }, ['measured_at']);
  }
}

/**
 * The `webhooks` section (OpenAPI 3.1): every event the platform delivers (domain/webhooks/catalogue.ts), as the
 * POST it makes to a subscribed endpoint — the body of its shape and the Standard Webhooks signature headers
 * (infra/webhooks/sign.ts; docs/webhooks.md says how to verify them).
 */
function webhooksSection(): Record<string, unknown> {
  const signature = [
    { name: 'webhook-id', description: 'The delivery id (the same on every retry of one delivery)' },
    { name: 'webhook-timestamp', description: 'Unix seconds of this attempt' },
    {
      name: 'webhook-signature',
      description: '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with the endpoint secret',
    },
  ].map((h) => ({ in: 'header', required: true, schema: { type: 'string' }, ...h }));
  const operationIds = distinctNames(
    Object.keys(WEBHOOK_NAMES).map((n) => `webhook_${n.replace(/[^A-Za-z0-9]+/g, '_')}`),
  );
  return Object.fromEntries(
    Object.entries(WEBHOOK_NAMES).map(([name, w], i) => {
      const common = {
        id: { type: 'string', description: 'The delivery id (also the webhook-id header)' },
        timestamp: { type: 'string', format: 'date-time', description: 'When the event happened' },
        // As answers are documented: without the size bounds of what a client may send.
        data: { ...asResponse(webhookData(name), SIZE_BOUNDS), description: `What happened: ${w.description}` },
      };
      const body =
        w.shape === 'calendar'
          ? {
              type: 'object',
              properties: { event: { const: name }, ...common },
              required: ['event', 'id', 'timestamp', 'data'],
            }
          : {
              type: 'object',
              properties: {
                event_type: { const: name },
                ...common,
                ...(name === 'content_generated'
                  ? { content: { type: 'string', description: 'The generated text (when the result has one)' } }
                  : {}),
              },
              required: ['event_type', 'id', 'timestamp', 'data'],
            };
      return [
        name,
        {
          post: {
            operationId: operationIds[i],
            // Authenticated by its signature headers, not by a credential of the platform's.
            security: [],
            summary: `${name}: ${w.description}`,
            description: `Registered with ${w.family === 'calendar' ? 'POST /v1/calendar/webhooks' : 'POST /api/webhooks'}. A 2xx answer within the attempt time-out acknowledges it; anything else is retried on the delivery schedule (docs/webhooks.md).`,
            tags: ['webhooks'],
            parameters: signature,
            requestBody: { required: true, content: { 'application/json': { schema: body } } },
            responses: { '200': { description: 'Received (any 2xx)' } },
          },
        },
      ];
    }),
  );
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
