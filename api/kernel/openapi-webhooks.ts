/**
 * The `webhooks` section of the OpenAPI document (api/kernel/openapi.ts): each event the platform delivers, and the
 * shape of its body's `data`.
 */
import { TEST_EVENT, WEBHOOK_NAMES } from '../../domain/webhooks/catalogue';
import { pascalOf } from './task-catalogue';
import { allRequired, anyString, asResponse, int, named, SIZE_BOUNDS, withRequired } from './schema';
import { distinctNames, type Schema } from './openapi-passes';

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
      allRequired({
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
        ...withRequired(
          {
            calendar_id: anyString,
            event_id: anyString,
            platform: anyString,
            published_at: { type: ['string', 'null'], format: 'date-time' },
            performance_initial: {
              anyOf: [allRequired({ impressions: int, engagements: int }), { type: 'null' }],
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
    allRequired({
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
      return allRequired({
        action_id: anyString,
        integration: { ...anyString, description: '`search_console`, `performance_import` or `seo_analyzer`' },
        action: { ...anyString, description: '`connected`, `disconnected`, `imported`, `synced` or `analyzed`' },
        route: { ...anyString, description: 'The route the user called' },
        details: { type: 'object', additionalProperties: {}, description: 'What the action concerned, by name' },
      });
    case 'quota.warning':
      return allRequired({
        alert_key: anyString,
        title: anyString,
        message: anyString,
        severity: { enum: ['info', 'warning', 'critical'] },
        alert_type: { enum: ['usage_threshold', 'cost_threshold'] },
        billing_period: anyString,
      });
    case TEST_EVENT:
      return allRequired({ endpoint_id: anyString, message: anyString });
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
export function webhooksSection(): Record<string, unknown> {
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
