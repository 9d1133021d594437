/**
 * Site publishing (Document 2, /api/sitebuilder; docs/sitebuilder.md): the
 * OAuth connection to the website builder (authorization URL, callback,
 * connection status, disconnect) and publishing a Markdown post as a
 * background task with a status route. General family: the general envelope
 * and error codes. Tokens never appear in a response.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { PublishRequest } from '../../domain/sitebuilder/types';
import { resolveWebhookTarget, UnsafeWebhookUrlError } from '../../infra/webhooks/ssrf';
import { getConnection } from '../../projections/sitebuilder-connections';
import type { TaskRecord } from '../../projections/task-status';
import { sitebuilderConnectWorkflow, sitebuilderDisconnectWorkflow, sitebuilderPublishWorkflow } from '../../workflows';
import { callerOf, clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import { startWorkflow } from '../kernel/workflows';
import { awaitTaskEnd, ownTask, pollHeaders, presentTask, runWorkflow } from '../kernel/tasks';
import { defineTaskType } from '../kernel/task-catalogue';
import { consumeAuthorization, liveConnectionOf, settingsOf, startAuthorization } from './commands';
import {
  authUrlSchema,
  callbackBody,
  connectionResultSchema,
  connectionStatusSchema,
  disconnectSchema,
  publishBody,
  publishQuery,
  publishTaskSchema,
  taskIdParams,
  publishResultSchema,
} from './schemas';

const TAGS = ['site publishing'];
const TASK_TYPE = defineTaskType({ type: 'sitebuilder_publish', result: publishResultSchema }).type;
const TERMINAL = ['completed', 'failed', 'cancelled'];

/** A publish task as its routes answer it (the route names the kind: no `task_type`). */
const present = (t: TaskRecord) => presentTask(t, ['task_type']);
/** The caller's publish task (api/kernel/tasks.ts ownTask). */
const ownPublishTask = (ctx: HandlerCtx<unknown, unknown, unknown>, taskId: string) =>
  ownTask(ctx, taskId, TASK_TYPE, 'Publish task not found');

/** Refuses a cover URL the worker would refuse (SSRF rules) at once, naming the field. */
async function checkCoverUrl(ctx: HandlerCtx<PublishRequest>, url: string): Promise<void> {
  try {
    await resolveWebhookTarget(url, settingsOf(ctx.deps).mediaSsrf);
  } catch (e) {
    if (!(e instanceof UnsafeWebhookUrlError)) throw e;
    throw new ValidationError([
      {
        location: 'body',
        path: 'cover_image_url',
        kind: 'constraint',
        message: `cover_image_url refused: ${e.reason}`,
        provided_value: url,
      },
    ]);
  }
}

export const sitebuilderRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/api/sitebuilder/auth/url',
    auth: 'user',
    tags: TAGS,
    summary: 'Start connecting a site: the authorization URL',
    description:
      'Starts an authorization (OAuth 2.0 authorization code with PKCE S256) and answers the URL to send the site owner to. The state is single-use and expires at `expires_at`; each call starts a new authorization.',
    responses: { 200: { description: 'The authorization URL with its state and code challenge', data: authUrlSchema } },
    errors: { 503: 'Site publishing is not configured (the message names the variables)' },
    async handler(ctx) {
      const s = settingsOf(ctx.deps);
      const userId = userIdOf(ctx);
      const r = await startAuthorization(ctx.deps.store, s, userId, clock(ctx.deps), requestMeta(ctx));
      await settle(ctx, 'sitebuilder-connections', r.events);
      return { data: r.value };
    },
  }),

  defineRoute<{ code: string; state?: string }>({
    method: 'post',
    path: '/api/sitebuilder/auth/callback',
    auth: 'user',
    tags: TAGS,
    summary: 'Complete the connection with the authorization code',
    description:
      "Checks the state against the caller's authorizations (it must match one, unused and unexpired; without a state the newest authorization in progress is used), consumes it, exchanges the code with the PKCE verifier and stores the tokens encrypted. A code the builder refuses (expired, used) is 400.",
    request: { body: callbackBody },
    responses: { 200: { description: 'The connection', data: connectionResultSchema } },
    errors: {
      502: 'The site builder failed or refused the exchange',
      503: 'Site publishing is not configured, or background work is unavailable',
    },
    async handler(ctx) {
      settingsOf(ctx.deps);
      const userId = userIdOf(ctx);
      const authorizationId = await consumeAuthorization(
        ctx.deps.store,
        userId,
        ctx.body.state,
        clock(ctx.deps),
        requestMeta(ctx),
      );
      const c = await runWorkflow(ctx, sitebuilderConnectWorkflow, {
        workflowId: `sitebuilder-connect-${authorizationId}`,
        userId: userIdOf(ctx),
        args: [{ userId, authorizationId, code: ctx.body.code }],
        timeout: '3m',
      });
      return { data: { connected: true, status: 'connected', ...c } };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/api/sitebuilder/connection',
    auth: 'user',
    tags: TAGS,
    summary: 'Connection status',
    description:
      '`not_connected`, `connected`, `disconnected` (by the user, or replaced by a newer connection) or `revoked` (the builder refused the tokens: connect again).',
    responses: { 200: { description: 'The connection status', data: connectionStatusSchema } },
    handler: async (ctx) => ({ data: await getConnection(ctx.deps.db, userIdOf(ctx), clock(ctx.deps)) }),
  }),

  defineRoute({
    method: 'post',
    path: '/api/sitebuilder/disconnect',
    auth: 'user',
    tags: TAGS,
    summary: 'Disconnect the site',
    description:
      'Revokes the refresh and access tokens at the builder (RFC 7009) and forgets them. The tokens are forgotten even when the builder cannot be reached; `revoked_at_builder` and `revocation_error` say what happened there. 404 when no site is connected.',
    responses: { 200: { description: 'The connection is over', data: disconnectSchema } },
    errors: { 404: 'No site is connected', 503: 'Background work is unavailable' },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      if (!(await liveConnectionOf(ctx.deps.store, userId))) throw new NotFoundError('No site is connected');
      const r = await runWorkflow(ctx, sitebuilderDisconnectWorkflow, {
        workflowId: `sitebuilder-disconnect-${userId}-${randomUUID()}`,
        userId: userIdOf(ctx),
        args: [{ userId }],
        timeout: '2m',
      });
      if (!r.connection_id) throw new NotFoundError('No site is connected');
      const status = await getConnection(ctx.deps.db, userId, clock(ctx.deps));
      return {
        data: {
          connected: false,
          status: 'disconnected',
          connection_id: r.connection_id,
          revoked_at_builder: r.revoked_at_builder,
          revocation_error: r.revocation_error,
          disconnected_at: status.disconnected_at ?? clock(ctx.deps).toISOString(),
        },
      };
    },
  }),

  defineRoute<PublishRequest, { wait_seconds: number }>({
    method: 'post',
    path: '/api/sitebuilder/publish',
    auth: 'user',
    tags: TAGS,
    summary: 'Publish a Markdown post to the connected site',
    description:
      'Starts a publish task: Markdown → rich content, cover image upload, draft, publish (unless `publish` is false). Answers 202 with the task record at once, or — with `wait_seconds` — 200 once the task finished within that time. Poll GET /api/sitebuilder/publish/{task_id} for progress and the result.',
    request: { body: publishBody, query: publishQuery },
    responses: {
      200: {
        description: 'The task finished within wait_seconds (see status: completed or failed)',
        data: publishTaskSchema,
      },
      202: { description: 'The task is running', data: publishTaskSchema },
    },
    errors: {
      409: 'No site is connected (connect one first)',
      503: 'Site publishing is not configured, or background work is unavailable',
    },
    async handler(ctx) {
      settingsOf(ctx.deps);
      const userId = userIdOf(ctx);
      if (!(await liveConnectionOf(ctx.deps.store, userId)))
        throw new ConflictError(
          'No site is connected: connect one first (GET /api/sitebuilder/auth/url, then POST /api/sitebuilder/auth/callback)',
          { status: (await getConnection(ctx.deps.db, userId)).status },
        );
      if (ctx.body.cover_image_url) await checkCoverUrl(ctx, ctx.body.cover_image_url);
      const taskId = `sitebuilder-publish-${randomUUID()}`;
      await startWorkflow(ctx.deps, sitebuilderPublishWorkflow, {
        workflowId: taskId,
        args: [{ taskId, userId, request: ctx.body }],
        task: { userId, plan: callerOf(ctx).plan, taskType: TASK_TYPE },
      });
      // With wait_seconds: the task's end (a failure too: it is answered as the record says it), then its record.
      await awaitTaskEnd(ctx, taskId, (ctx.query.wait_seconds ?? 0) * 1000);
      const t = await ownPublishTask(ctx, taskId);
      return {
        status: TERMINAL.includes(t.status) ? 200 : 202,
        data: present(t),
        headers: { location: `/api/sitebuilder/publish/${taskId}` },
      };
    },
  }),

  defineRoute<unknown, unknown, { task_id: string }>({
    method: 'get',
    path: '/api/sitebuilder/publish/{task_id}',
    auth: 'user',
    tags: TAGS,
    summary: 'Status, progress and result of a publish task',
    description:
      "The record of a POST /api/sitebuilder/publish task: `status` (`started`, `in_progress`, then `completed` or `failed`), the progress messages so far, and once completed the `result` (post and draft ids, `url` \u2014 null for a draft \u2014, SEO metadata, ignored category and tag ids); a failed task says why in `error {code, message}`. Another user's or an unknown task is 404. Counted in the status-polling rate window.",
    rateScheme: 'status',
    request: { params: taskIdParams },
    etag: true,
    responses: { 200: { description: 'The task record', data: publishTaskSchema } },
    handler: async (ctx) => {
      const data = present(await ownPublishTask(ctx, ctx.params.task_id));
      return { data, headers: pollHeaders(data.status) };
    },
  }),
];
