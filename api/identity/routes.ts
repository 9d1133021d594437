/**
 * Settings of the signed-in user (general family): API keys and session
 * tokens. Keys are shown once, at creation or rotation; afterwards only their
 * prefix. Writes append identity events and wait (bounded) for the identity
 * projection, so the client's next read sees the change.
 */
import { NotFoundError } from '../../domain/errors';
import { lastUsed } from '../../infra/ratelimit/postgres';
import { ApiKeyRecord, getApiKey, listApiKeys } from '../../projections/identity';
import { createApiKey, endSession, renameApiKey, revokeApiKey, rotateApiKey, startSession } from './commands';
import type { AppDeps } from '../kernel/types';
import { callerOf, requestMeta, settle } from '../kernel/handler';
import { iso } from '../kernel/schema';
import { defineRoute, RouteDef } from '../kernel/registry';
import { healthData, healthReport } from '../health/routes';

const KEYS = '/api/settings/api-keys';
const keyIdParams = {
  type: 'object',
  properties: { key_id: { type: 'string', pattern: '^[A-Za-z0-9]{12}$' } },
  required: ['key_id'],
};
const name = { type: 'string', minLength: 1, maxLength: 100 };
const environment = { enum: ['development', 'production'], description: 'development keys get lower rate limits' };

/** What every key description has, listed or just made. */
const keyIdentity = { key_id: { type: 'string' }, prefix: { type: 'string' }, name: { type: 'string' }, environment };
const keySchema = {
  type: 'object',
  properties: {
    ...keyIdentity,
    status: { enum: ['active', 'grace'], description: 'grace: rotated, works until expires_at' },
    created_at: iso,
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['key_id', 'prefix', 'name', 'environment', 'status', 'created_at', 'last_used_at', 'expires_at'],
};
const createdKeySchema = {
  type: 'object',
  properties: {
    ...keyIdentity,
    key: { type: 'string', description: 'The whole key, shown only in this response' },
    grace_until: { ...iso, description: 'rotation: the old key works until then' },
    rotated_from: { type: 'string' },
  },
  required: ['key_id', 'prefix', 'name', 'environment', 'key'],
};

const meta = requestMeta;
const me = callerOf;

async function view(deps: AppDeps, keys: ApiKeyRecord[]) {
  const used = await lastUsed(
    deps.db,
    keys.map((k) => `api_key:${k.key_id}`),
  );
  const now = Date.now();
  return keys
    .filter((k) => !k.expires_at || Date.parse(k.expires_at) > now)
    .map((k) => ({
      key_id: k.key_id,
      prefix: k.prefix,
      name: k.name,
      environment: k.environment,
      status: k.expires_at ? 'grace' : 'active',
      created_at: k.created_at,
      last_used_at: used.get(`api_key:${k.key_id}`) ?? null,
      expires_at: k.expires_at,
    }));
}

async function ownKeyView(deps: AppDeps, userId: string, keyId: string) {
  const k = await getApiKey(deps.db, userId, keyId);
  const [v] = k ? await view(deps, [k]) : [];
  if (!v) throw new NotFoundError('API key not found');
  return v;
}

const tags = ['settings'];

export const settingsRoutes: RouteDef[] = [
  defineRoute<{ name: string; environment: 'development' | 'production' }>({
    method: 'post',
    path: KEYS,
    auth: 'user',
    tags,
    summary: 'Create an API key (shown once)',
    description:
      'Answers the whole key (`cp_live_<prefix>_<secret>` for production, `cp_test_…` for development) once: only its SHA-256 is stored, and later reads show the prefix only. It works at once. `environment` defaults to development, whose keys get lower rate limits.',
    request: {
      body: {
        type: 'object',
        properties: { name, environment: { ...environment, default: 'development' } },
        required: ['name'],
      },
    },
    responses: { 201: { description: 'The new key; store it now, it is not shown again', data: createdKeySchema } },
    handler: async (ctx) => {
      const r = await createApiKey(ctx.deps, me(ctx).userId, ctx.body, meta(ctx));
      await settle(ctx, 'identity', r.events);
      return { status: 201, data: r.value };
    },
  }),
  defineRoute({
    method: 'get',
    path: KEYS,
    auth: 'user',
    tags,
    summary: "List the caller's API keys (prefix, name, environment, created, last used)",
    description:
      "The caller's working keys, newest first: revoked keys and rotated keys past their grace period are not listed. `status` is `grace` for a rotated key still working until `expires_at`; `last_used_at` is the last request the key made (null if none).",
    responses: { 200: { description: 'Keys, newest first', data: { type: 'array', items: keySchema } } },
    handler: async (ctx) => ({ data: await view(ctx.deps, await listApiKeys(ctx.deps.db, me(ctx).userId)) }),
  }),
  defineRoute<unknown, unknown, { key_id: string }>({
    method: 'get',
    path: `${KEYS}/{key_id}`,
    auth: 'user',
    tags,
    summary: 'One API key',
    description:
      "The key as GET /api/settings/api-keys lists it (never the key text). Another user's, a revoked or an expired key is 404.",
    request: { params: keyIdParams },
    responses: { 200: { description: 'The key', data: keySchema } },
    handler: async (ctx) => ({ data: await ownKeyView(ctx.deps, me(ctx).userId, ctx.params.key_id) }),
  }),
  defineRoute<{ name: string }, unknown, { key_id: string }>({
    method: 'patch',
    path: `${KEYS}/{key_id}`,
    auth: 'user',
    tags,
    summary: 'Rename an API key',
    description:
      "Changes only the name; the key text and its id stay. Another user's, a revoked or an expired key is 404.",
    request: { params: keyIdParams, body: { type: 'object', properties: { name }, required: ['name'] } },
    responses: { 200: { description: 'The renamed key', data: keySchema } },
    handler: async (ctx) => {
      const r = await renameApiKey(ctx.deps, me(ctx).userId, ctx.params.key_id, ctx.body.name, meta(ctx));
      await settle(ctx, 'identity', r.events);
      return { data: await ownKeyView(ctx.deps, me(ctx).userId, ctx.params.key_id) };
    },
  }),
  defineRoute<unknown, unknown, { key_id: string }>({
    method: 'delete',
    path: `${KEYS}/{key_id}`,
    auth: 'user',
    tags,
    summary: 'Revoke an API key (refused with 401 from then on)',
    description:
      "The key is refused (401) as soon as the revocation is stored (other API processes drop their cached copy when notified, within milliseconds) and is no longer listed. Another user's, an already revoked or an expired key is 404; a key may revoke itself.",
    request: { params: keyIdParams },
    responses: {
      200: {
        description: 'Revoked',
        data: {
          type: 'object',
          properties: { key_id: { type: 'string' }, revoked: { const: true } },
          required: ['key_id', 'revoked'],
        },
      },
    },
    handler: async (ctx) => {
      const r = await revokeApiKey(ctx.deps, me(ctx).userId, ctx.params.key_id, meta(ctx));
      await settle(ctx, 'identity', r.events);
      return { data: { key_id: ctx.params.key_id, revoked: true } };
    },
  }),
  defineRoute<{ name?: string }, unknown, { key_id: string }>({
    method: 'post',
    path: `${KEYS}/{key_id}/rotate`,
    auth: 'user',
    tags,
    summary: 'Rotate an API key: a new key now, the old one keeps working for the grace period',
    description:
      "Makes a successor with the same environment and name (unless `name` is given), shown once, and lets the old key work until `grace_until` (API_KEY_ROTATION_GRACE_SECONDS, default 24 h); after that the old key is refused (401) and no longer listed. A key already rotated cannot be rotated again (409: rotate its successor); another user's, a revoked or an expired key is 404.",
    request: { params: keyIdParams, body: { type: 'object', properties: { name } } },
    responses: {
      201: {
        description: "The new key (shown once) and the end of the old key's grace period",
        data: createdKeySchema,
      },
    },
    handler: async (ctx) => {
      const r = await rotateApiKey(
        ctx.deps,
        me(ctx).userId,
        ctx.params.key_id,
        ctx.deps.settings.rotationGraceSeconds,
        ctx.body?.name,
        meta(ctx),
      );
      await settle(ctx, 'identity', r.events);
      return { status: 201, data: r.value };
    },
  }),
  defineRoute<unknown, unknown, { key_id: string }>({
    method: 'post',
    path: `${KEYS}/{key_id}/test`,
    auth: 'user',
    tags,
    summary: 'Test an API key: checks it is live and runs the health check',
    description:
      "Answers the key (404 when it is another user's, revoked or expired) and the platform's health report (status, version, services, processes); while a service or process is down it answers 503 with the report in `details`, like GET /api/health. Changes nothing.",
    request: { params: keyIdParams },
    responses: {
      200: {
        description: 'The key works; health of the platform',
        data: { type: 'object', properties: { key: keySchema, health: healthData }, required: ['key', 'health'] },
      },
    },
    handler: async (ctx) => {
      const key = await ownKeyView(ctx.deps, me(ctx).userId, ctx.params.key_id);
      return { data: { key, health: await healthReport(ctx.deps) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/sessions',
    auth: 'user',
    tags,
    summary: 'Make a session token for the backlink outreach API (Authorization: Bearer <token>)',
    description:
      "Made with an API key: the token (`cps_<session_id>_<secret>`) is shown once and acts for the key's user on the backlink outreach and image studio families until `expires_at` (SESSION_TTL_SECONDS, default 12 h). End it early with DELETE /api/settings/sessions/{session_id}.",
    responses: {
      201: {
        description: 'Session token, shown once',
        data: {
          type: 'object',
          properties: {
            session_id: { type: 'string' },
            token: { type: 'string' },
            token_type: { const: 'Bearer' },
            expires_at: iso,
          },
          required: ['session_id', 'token', 'token_type', 'expires_at'],
        },
      },
    },
    handler: async (ctx) => {
      const r = await startSession(
        ctx.deps,
        me(ctx).userId,
        me(ctx).credentialId,
        ctx.deps.settings.sessionTtlSeconds,
        meta(ctx),
      );
      await settle(ctx, 'identity', r.events);
      return { status: 201, data: { ...r.value, token_type: 'Bearer' } };
    },
  }),
  defineRoute<unknown, unknown, { session_id: string }>({
    method: 'delete',
    path: '/api/settings/sessions/{session_id}',
    auth: 'user',
    tags,
    summary: 'End a session token',
    description: "The token is refused (401) from then on. Another user's or an already ended session is 404.",
    request: {
      params: {
        type: 'object',
        properties: { session_id: { type: 'string', pattern: '^[A-Za-z0-9]{16}$' } },
        required: ['session_id'],
      },
    },
    responses: {
      200: {
        description: 'Ended',
        data: {
          type: 'object',
          properties: { session_id: { type: 'string' }, ended: { const: true } },
          required: ['session_id', 'ended'],
        },
      },
    },
    handler: async (ctx) => {
      const r = await endSession(ctx.deps, me(ctx).userId, ctx.params.session_id, meta(ctx));
      await settle(ctx, 'identity', r.events);
      return { data: { session_id: ctx.params.session_id, ended: true } };
    },
  }),
];
