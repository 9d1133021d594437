/**
 * SEO dashboard performance (general family): the performance-data port's two
 * feeds — an import route (JSON rows or CSV) and Search Console (connect with
 * the user's OAuth refresh token, then sync as a task) — and
 * GET /api/seo-dashboard/performance, which computes traffic, rankings and
 * conversions for a date range from the stored rows only. A domain without
 * data answers zero counts and says how to import or connect (the spec's
 * "performance analysis" of nothing yet, not "not found"). docs/content.md has the rules.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../../domain/errors';
import { factsDecider } from '../../domain/decider';
import { PERFORMANCE_ROWS_PER_EVENT, performanceStream, searchConsoleStream, SeoEvent } from '../../domain/events/seo';
import { handleCommands, streamCommand } from '../../infra/eventstore/command';
import { checkRows, csvRows, MAX_IMPORT_ROWS } from '../../domain/performance/rows';
import { parseDateRange } from '../../domain/performance/report';
import { fingerprint } from '../../infra/seo/credentials';
import { performanceSyncWorkflow } from '../../workflows';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import { allRequired, arr, int, str, withRequired } from '../kernel/schema';
import { runTask, taskResponses } from '../kernel/tasks';
import { integrationActionCommand, recordIntegrationAction } from '../integrations/actions';
import { HOW_TO_ADD_DATA, performanceReport, performanceDataSchema, PerformanceQuery } from './performance-report';

const tags = ['seo'];

/**
 * Performance rows and Search Console connections are facts: each import or sync adds rows to the domain's log, each
 * connect or disconnect is recorded as it happens (the credential store holds the token).
 */
const seoFacts = factsDecider<SeoEvent>();

export const domainField = {
  type: 'string',
  maxLength: 253,
  pattern: '^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
  description: 'Host name, e.g. example.com',
};
const dateRangeField = {
  type: 'string',
  maxLength: 30,
  pattern:
    '^(([1-9]|[1-9][0-9]|[1-3][0-9][0-9]|4[0-7][0-9]|480)d|([1-9]|1[0-6])m|[0-9]{4}-[0-9]{2}-[0-9]{2}\\.\\.[0-9]{4}-[0-9]{2}-[0-9]{2})$',
  default: '30d',
  description: 'Nd (1-480 days ending today), Nm (1-16 months) or YYYY-MM-DD..YYYY-MM-DD',
};
const metricsField = {
  type: 'array',
  items: { type: 'string', pattern: '^(traffic|rankings|conversions)(,(traffic|rankings|conversions))*$' },
  maxItems: 3,
  description: 'traffic, rankings, conversions (repeated or comma-separated); default all',
};

interface ImportBody {
  domain: string;
  rows?: Array<Record<string, unknown>>;
  csv?: string;
}

export const performanceRoutes: RouteDef[] = [
  defineRoute<unknown, PerformanceQuery>({
    method: 'get',
    path: '/api/seo-dashboard/performance',
    auth: 'user',
    tags,
    summary: 'Traffic, rankings and conversions of a domain for a date range, from imported or synced data',
    description: `Fields domain, date_range (default 30d) and metrics (default all) as query parameters, or as a JSON body. Every number is computed from the domain's stored rows; one the rows cannot give is null with a note. A domain without any data answers 200 with zero counts, a note and how_to_add_data: ${HOW_TO_ADD_DATA.join('; ')}.`,
    // The spec lists these as body fields of a GET: a JSON body's fields count as query parameters.
    queryFromBody: true,
    request: {
      query: withRequired({ domain: domainField, date_range: dateRangeField, metrics: metricsField }, ['domain']),
    },
    responses: { 200: { description: 'The metrics', data: performanceDataSchema } },
    handler: async (ctx) => {
      const q = { ...ctx.query, domain: ctx.query.domain.toLowerCase() } as PerformanceQuery;
      const range = parseDateRange(q.date_range, clock(ctx.deps));
      return { data: await performanceReport(ctx.deps.db, userIdOf(ctx), q, range) };
    },
  }),
  defineRoute<ImportBody>({
    method: 'post',
    path: '/api/seo-dashboard/performance/import',
    auth: 'user',
    tags,
    summary: 'Import performance rows (JSON rows or CSV) for a domain',
    description: `Give rows (objects) or csv (text with a header row). Columns: date (YYYY-MM-DD), page (path or URL on the domain), query, clicks, impressions (whole numbers, clicks ≤ impressions), position (≥ 1), conversions (whole number); date, page, clicks and impressions required. At most ${MAX_IMPORT_ROWS} rows. A row replaces a stored row with the same date, page and query. Recorded as a user_action.`,
    request: {
      body: withRequired(
        {
          domain: domainField,
          rows: arr({ type: 'object' }, { maxItems: MAX_IMPORT_ROWS, minItems: 1 }),
          csv: str(900_000, { minLength: 1 }),
        },
        ['domain'],
        { oneOf: [{ required: ['rows'] }, { required: ['csv'] }] },
      ),
    },
    responses: {
      201: {
        description: 'Imported',
        data: allRequired({
          import_id: { type: 'string' },
          domain: { type: 'string' },
          source: { const: 'import' },
          rows_imported: int,
          date_range: allRequired({ start: { type: 'string' }, end: { type: 'string' } }),
        }),
      },
    },
    handler: async (ctx) => {
      const b = ctx.body;
      const domain = b.domain.toLowerCase();
      if ((b.rows === undefined) === (b.csv === undefined))
        throw new ValidationError([
          { location: 'body', path: 'rows', kind: 'constraint', message: 'give exactly one of rows or csv' },
        ]);
      const rows = b.csv !== undefined ? checkRows(csvRows(b.csv), domain, 'csv') : checkRows(b.rows!, domain, 'rows');
      const importId = randomUUID();
      const userId = userIdOf(ctx);
      const parts = Math.ceil(rows.length / PERFORMANCE_ROWS_PER_EVENT);
      const dates = rows.map((r) => r.date).sort();
      const action = integrationActionCommand(ctx, {
        integration: 'performance_import',
        action: 'imported',
        details: { domain, rows: rows.length, format: b.csv !== undefined ? 'csv' : 'json' },
      });
      // All parts and the action in one transaction: an import is stored whole or not at all.
      const { outcomes } = await handleCommands(
        ctx.deps.store,
        [
          streamCommand({
            streamId: performanceStream(userId, domain),
            decider: seoFacts,
            expect: 'any',
            command: Array.from({ length: parts }, (_, part) => ({
              type: 'PerformanceRowsImported' as const,
              data: {
                import_id: importId,
                user_id: userId,
                domain,
                source: 'import' as const,
                part: part + 1,
                parts,
                rows: rows.slice(part * PERFORMANCE_ROWS_PER_EVENT, (part + 1) * PERFORMANCE_ROWS_PER_EVENT),
              },
            })),
          }),
          action,
        ],
        { metadata: requestMeta(ctx) },
      );
      await settle(ctx, 'seo-performance', outcomes[0].events);
      return {
        status: 201,
        data: {
          import_id: importId,
          domain,
          source: 'import',
          rows_imported: rows.length,
          date_range: { start: dates[0], end: dates[dates.length - 1] },
        },
      };
    },
  }),
  ...searchConsoleRoutes(),
];

function searchConsoleRoutes(): RouteDef[] {
  const integrations = (ctx: HandlerCtx) => {
    if (!ctx.deps.integrations)
      throw new ServiceUnavailableError('Integrations are not available on this API (no credential store)');
    return ctx.deps.integrations;
  };
  const notConfigured = () =>
    new ServiceUnavailableError(
      'Search Console is not configured on this platform: set SEARCH_CONSOLE_CLIENT_ID and SEARCH_CONSOLE_CLIENT_SECRET (or import data with POST /api/seo-dashboard/performance/import)',
      { variables: ['SEARCH_CONSOLE_CLIENT_ID', 'SEARCH_CONSOLE_CLIENT_SECRET'] },
    );
  const status = allRequired({
    connected: { type: 'boolean' },
    configured: { type: 'boolean', description: "The platform's OAuth client is set (sync possible)" },
    site_url: { type: ['string', 'null'] },
    token_fingerprint: { type: ['string', 'null'] },
  });
  return [
    defineRoute({
      method: 'get',
      path: '/api/seo-dashboard/search-console',
      auth: 'user',
      tags,
      summary: "The caller's Search Console connection",
      description:
        'connected: a refresh token is stored (PUT /api/seo-dashboard/search-console); configured: the platform has the OAuth client a sync needs. site_url is the default property given at connection; token_fingerprint identifies the stored token without revealing it (null when not connected).',
      responses: { 200: { description: 'Connection status', data: status } },
      errors: { 503: 'No credential store on this API' },
      handler: async (ctx) => {
        const i = integrations(ctx);
        const c = await i.credentials.get(userIdOf(ctx), 'search_console');
        return {
          data: {
            connected: !!c,
            configured: i.searchConsole,
            site_url: (c?.settings.site_url as string | undefined) ?? null,
            token_fingerprint: c ? fingerprint(c.secret) : null,
          },
        };
      },
    }),
    defineRoute<{ refresh_token: string; site_url?: string }>({
      method: 'put',
      path: '/api/seo-dashboard/search-console',
      auth: 'user',
      tags,
      summary: "Connect the caller's Google Search Console (OAuth refresh token)",
      description:
        "Stores the caller's OAuth 2.0 refresh token (scope webmasters.readonly, granted to the platform's OAuth client) encrypted; it is checked on the first sync. site_url: the default property (sc-domain:example.com or https://www.example.com/). Recorded as a user_action.",
      request: {
        body: withRequired(
          {
            refresh_token: str(2048, { minLength: 10, pattern: '^\\S+$' }),
            site_url: str(300, { minLength: 1, pattern: '^(sc-domain:[^\\s/]+|https?://\\S+)$' }),
          },
          ['refresh_token'],
        ),
      },
      responses: { 200: { description: 'Connected', data: status } },
      errors: { 503: 'Search Console is not configured on this platform' },
      handler: async (ctx) => {
        const i = integrations(ctx);
        if (!i.searchConsole) throw notConfigured();
        const userId = userIdOf(ctx);
        const fp = fingerprint(ctx.body.refresh_token);
        await ctx.deps.store.transaction(async (tx) => {
          await i.credentials.put(
            userId,
            'search_console',
            ctx.body.refresh_token,
            { site_url: ctx.body.site_url },
            tx,
          );
          await handleCommands(
            tx,
            [
              streamCommand({
                streamId: searchConsoleStream(userId),
                decider: seoFacts,
                expect: 'any',
                command: [
                  {
                    type: 'SearchConsoleConnected',
                    data: { user_id: userId, site_url: ctx.body.site_url ?? null, token_fingerprint: fp },
                  },
                ],
              }),
              integrationActionCommand(ctx, {
                integration: 'search_console',
                action: 'connected',
                details: { site_url: ctx.body.site_url ?? null },
              }),
            ],
            { metadata: requestMeta(ctx) },
          );
        });
        return {
          data: { connected: true, configured: true, site_url: ctx.body.site_url ?? null, token_fingerprint: fp },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/seo-dashboard/search-console',
      auth: 'user',
      tags,
      summary: "Disconnect the caller's Search Console (deletes the stored token; data already synced stays)",
      description:
        "Answers the connection status after the change (connected: false). Performance rows already synced stay in the domain's data for GET /api/seo-dashboard/performance; syncs need a new PUT. Recorded as a user_action (search_console/disconnected). Not connected: 404.",
      responses: { 200: { description: 'Disconnected', data: status } },
      errors: { 404: 'Search Console is not connected', 503: 'No credential store on this API' },
      handler: async (ctx) => {
        const i = integrations(ctx);
        const userId = userIdOf(ctx);
        await ctx.deps.store.transaction(async (tx) => {
          const deleted = await i.credentials.delete(userId, 'search_console', tx);
          if (!deleted) throw new NotFoundError('Search Console is not connected');
          await handleCommands(
            tx,
            [
              streamCommand({
                streamId: searchConsoleStream(userId),
                decider: seoFacts,
                expect: 'any',
                command: [{ type: 'SearchConsoleDisconnected', data: { user_id: userId } }],
              }),
              integrationActionCommand(ctx, { integration: 'search_console', action: 'disconnected', details: {} }),
            ],
            { metadata: requestMeta(ctx) },
          );
        });
        return { data: { connected: false, configured: i.searchConsole, site_url: null, token_fingerprint: null } };
      },
    }),
    defineRoute<{ domain: string; site_url?: string; date_range: string }>({
      method: 'post',
      path: '/api/seo-dashboard/performance/sync',
      auth: 'user',
      tags,
      summary: "Read the caller's Search Console rows into the domain's performance data",
      description:
        'Reads date, page and query rows (clicks, impressions, position; Search Console reports no conversions) for date_range (default 90d, at most 16 months) from site_url (default: the connected one, else sc-domain:<domain>). A task: 200 when done within the wait bound, else 202 and poll. Recorded as a user_action.',
      request: {
        body: withRequired(
          {
            domain: domainField,
            site_url: str(300, { minLength: 1, pattern: '^(sc-domain:[^\\s/]+|https?://\\S+)$' }),
            date_range: { ...dateRangeField, default: '90d' },
          },
          ['domain'],
        ),
      },
      responses: taskResponses('Synced', {
        taskType: 'performance_sync',
        result: allRequired({ import_id: { type: 'string' }, rows_imported: int, site_url: { type: 'string' } }),
      }),
      errors: {
        409: 'Search Console is not connected (PUT /api/seo-dashboard/search-console first)',
        502: 'Search Console refused or failed (e.g. the refresh token was revoked: connect again)',
        503: 'Search Console is not configured on this platform',
      },
      handler: async (ctx) => {
        const i = integrations(ctx);
        if (!i.searchConsole) throw notConfigured();
        const userId = userIdOf(ctx);
        const c = await i.credentials.get(userId, 'search_console');
        if (!c)
          throw new ConflictError(
            'Search Console is not connected: PUT /api/seo-dashboard/search-console with your OAuth refresh token first',
          );
        const domain = ctx.body.domain.toLowerCase();
        const siteUrl = ctx.body.site_url ?? (c.settings.site_url as string | undefined) ?? `sc-domain:${domain}`;
        const range = parseDateRange(ctx.body.date_range, clock(ctx.deps));
        await recordIntegrationAction(ctx, {
          integration: 'search_console',
          action: 'synced',
          details: { domain, site_url: siteUrl, start: range.start, end: range.end },
        });
        return runTask(
          ctx,
          {
            workflow: performanceSyncWorkflow,
            taskType: 'performance_sync',
            idPrefix: 'performance-sync',
          },
          { domain, site_url: siteUrl, start_date: range.start, end_date: range.end, import_id: randomUUID() },
        );
      },
    }),
  ];
}
