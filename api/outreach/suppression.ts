/**
 * The suppression list (Document 3: POST/GET /suppression) and the RFC 8058
 * one-click unsubscribe endpoint every message links to. An entry is an
 * address or a whole `@domain`; the list is per workspace (default
 * "default", like sends). The enforcement row and the event are written in
 * one transaction (infra/outreach/suppression.ts), so the next send sees it;
 * the follow-ups waiting to send to the entry are cancelled at once (each
 * records "recipient is on the suppression list").
 */
import { NotFoundError, ValidationError } from '../../domain/errors';
import { suppressionEntry } from '../../domain/outreach/normalize';
import { addSuppression } from '../../infra/outreach/suppression';
import { verifyUnsubscribeToken } from '../../infra/outreach/unsubscribe';
import { listSuppressions, waitingFollowUpsTo } from '../../projections/outreach-activity-queries';
import { defineRoute, RouteDef } from '../kernel/registry';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import type { RouteCtx } from '../kernel/types';
import { arr, params, str, withRequired } from '../kernel/schema';
import { BASE, suppressionSchema, tags, workspaceId } from './schemas';
import { DEFAULT_SEND_WORKSPACE, outreachOf } from './sending';
import { cancelFollowUps } from './campaigns';

type Ctx = RouteCtx;

/** Stops the waiting follow-ups to a newly suppressed address or @domain (they would be refused anyway). */
async function stopFollowUpsTo(ctx: Ctx, userId: string, workspaceId: string, entry: string): Promise<void> {
  if (!ctx.deps.workflows) return;
  await cancelFollowUps(ctx, await waitingFollowUpsTo(ctx.deps.db, userId, workspaceId, entry));
}

const token = str(200, { pattern: '^[0-9a-fA-F-]{36}\\.[A-Za-z0-9_-]{10,40}$' });

const PAGE = (text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body><p>${text}</p></body></html>`;

export const suppressionRoutes: RouteDef[] = [
  defineRoute<{ email: string; reason?: string; workspace_id?: string }>({
    method: 'post',
    path: `${BASE}/suppression`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Suppress an address (jane@example.org) or a whole domain (@example.org) for a workspace',
    description:
      'Adding an entry that is already on the list answers 201 with the existing entry. The follow-ups waiting to send to the address (or to any address of the domain) in this workspace stop at once.',
    request: {
      body: withRequired(
        {
          email: str(254, { minLength: 3, description: 'an address, or @domain for the whole domain' }),
          reason: str(500),
          workspace_id: { ...workspaceId, description: 'default "default", like sends' },
        },
        ['email'],
      ),
    },
    responses: { 201: { description: 'The suppression record', data: suppressionSchema } },
    handler: async (ctx) => {
      const e = suppressionEntry(ctx.body.email);
      if (!e)
        throw new ValidationError([
          { location: 'body', path: 'email', kind: 'constraint', message: 'email must be an address or @domain' },
        ]);
      const userId = userIdOf(ctx);
      const workspace = ctx.body.workspace_id ?? DEFAULT_SEND_WORKSPACE;
      const r = await addSuppression(
        ctx.deps.store,
        {
          userId,
          workspaceId: workspace,
          entry: e.entry,
          kind: e.kind,
          reason: ctx.body.reason?.trim() || null,
          source: 'manual',
        },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach-activity', r.events);
      await stopFollowUpsTo(ctx, userId, workspace, e.entry);
      const rec = (await listSuppressions(ctx.deps.db, userId, workspace)).find((s) => s.email === e.entry);
      return { status: 201, data: rec };
    },
  }),
  defineRoute<unknown, { workspace_id?: string }>({
    method: 'get',
    path: `${BASE}/suppression`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'The workspace\'s suppression list (default workspace "default"), oldest first',
    description:
      'Entries of one send workspace of the caller (`workspace_id`, default `default`, the workspace of sends): addresses and whole `@domain`s, each with its reason and source (`manual`, `unsubscribe_link`, `unsubscribe_reply`, `bounce`). A send to a suppressed address or domain is refused by the policy (403).',
    request: { query: withRequired({ workspace_id: workspaceId }, []) },
    responses: { 200: { description: 'Suppression records', data: arr(suppressionSchema) } },
    handler: async (ctx) => ({
      data: await listSuppressions(ctx.deps.db, userIdOf(ctx), ctx.query.workspace_id ?? DEFAULT_SEND_WORKSPACE),
    }),
  }),
  defineRoute<unknown, unknown, { token: string }>({
    method: 'post',
    path: `${BASE}/unsubscribe/{token}`,
    auth: 'public',
    tags,
    summary: 'RFC 8058 one-click unsubscribe (the List-Unsubscribe URL of every message)',
    description:
      'Mail clients POST `List-Unsubscribe=One-Click` here; the recipient of the message is added to the suppression list of the workspace it was sent from. Idempotent.',
    request: { params: params({ token }) },
    responses: { 200: { description: 'Unsubscribed', contentType: 'text/html', data: { type: 'string' } } },
    errors: { 503: 'Outreach is not available in this API process' },
    handler: async (ctx) => {
      const o = outreachOf(ctx.deps, 'policy');
      const attemptId = verifyUnsubscribeToken(o.unsubscribeKey, ctx.params.token);
      const sent = attemptId ? await o.ledger.byAttempt(attemptId) : undefined;
      if (!sent) throw new NotFoundError('Unknown unsubscribe link');
      const r = await addSuppression(
        ctx.deps.store,
        {
          userId: sent.user_id,
          workspaceId: sent.workspace_id,
          entry: sent.recipient,
          kind: 'address',
          reason: 'one-click unsubscribe (RFC 8058)',
          source: 'unsubscribe_link',
        },
        { request_id: ctx.requestId, causation_id: attemptId },
      );
      await settle(ctx, 'outreach-activity', r.events);
      await stopFollowUpsTo(ctx, sent.user_id, sent.workspace_id, sent.recipient);
      return {
        raw: {
          contentType: 'text/html',
          body: PAGE('You have been unsubscribed. You will not receive further emails from us.'),
        },
      };
    },
  }),
  defineRoute<unknown, unknown, { token: string }>({
    method: 'get',
    path: `${BASE}/unsubscribe/{token}`,
    auth: 'public',
    tags,
    summary: 'Unsubscribe page: a button that POSTs the one-click request (a GET never unsubscribes, RFC 8058)',
    description:
      'Public (no credential): the page behind the List-Unsubscribe link of outreach mail, for recipients who have no account. It shows a button that POSTs the one-click request to the same URL; a GET changes nothing and does not check the token (the POST does: an unknown link is 404 there).',
    request: { params: params({ token }) },
    responses: { 200: { description: 'The page', contentType: 'text/html', data: { type: 'string' } } },
    handler: (ctx) => ({
      raw: {
        contentType: 'text/html',
        body: PAGE(
          `<form method="post" action="${BASE}/unsubscribe/${ctx.params.token}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
        ),
      },
    }),
  }),
];
