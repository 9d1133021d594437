/**
 * GET /api/health (general family) and GET /v1/health (developer family):
 * status and latency of PostgreSQL, Temporal and Kafka, and of the platform's
 * own processes: the Temporal worker (heartbeat and pollers), the relay
 * (heartbeat and lag) and the projector (heartbeat and per-projection lag),
 * see infra/health/platform.ts. Public, so a
 * monitoring probe can call it without a key; a key that is sent is checked
 * (401 when invalid), which makes it the place to test a new key. Called with
 * a key, /api/health counts as an integration route (Document 1's
 * "alternative paths"): burst 20 per minute, 100 per hour.
 * 200 when every service and process is ok, 503 SERVICE_UNAVAILABLE (naming
 * what is down or lagging, with the whole report in details) otherwise.
 */
import { ServiceUnavailableError } from '../../domain/errors';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import type { AppDeps } from '../kernel/types';

export const VERSION = process.env.npm_package_version ?? '0.1.0';

const service = {
  type: 'object',
  properties: { status: { enum: ['ok', 'down'] }, latency_ms: { type: 'number' }, error: { type: 'string' } },
  required: ['status', 'latency_ms'],
};

export const healthData = {
  type: 'object',
  properties: {
    status: { enum: ['ok', 'degraded'] },
    version: { type: 'string' },
    services: { type: 'object', additionalProperties: service },
    processes: {
      type: 'object',
      description: 'The platform processes: temporal-worker, relay, projector',
      additionalProperties: {
        type: 'object',
        properties: {
          status: { enum: ['ok', 'down', 'lagging'] },
          instances: { type: 'integer' },
          reason: { type: 'string' },
        },
        required: ['status'],
      },
    },
    temporal_ui: { type: 'string' },
    caller: {
      type: 'object',
      description: 'Present when the request carried a valid credential',
      properties: { user_id: { type: 'string' }, key_id: { type: 'string' }, environment: { type: 'string' } },
    },
  },
  required: ['status', 'version', 'services'],
};

/** Runs the health check; throws SERVICE_UNAVAILABLE with the report as details when a service is down. */
export async function healthReport(deps: AppDeps, caller?: HandlerCtx['caller']) {
  const { status, services, processes } = await deps.health();
  const data = {
    status,
    version: VERSION,
    services,
    ...(processes ? { processes } : {}),
    temporal_ui: deps.temporalUiUrl,
    ...(caller
      ? { caller: { user_id: caller.userId, key_id: caller.credentialId, environment: caller.environment } }
      : {}),
  };
  if (status !== 'ok') {
    const down = [...Object.entries(services), ...Object.entries(processes ?? {})]
      .filter(([, s]) => s.status !== 'ok')
      .map(([n, s]) => `${n} (${s.status})`);
    throw new ServiceUnavailableError(`Degraded: ${down.join(', ')}`, data);
  }
  return data;
}

const responses = { 200: { description: 'Every service and platform process is ok', data: healthData } };

export const healthRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/api/health',
    auth: 'public',
    rateScheme: 'integration',
    tags: ['health'],
    summary: 'Health of the platform (and test of an API key when one is sent)',
    description:
      'Status and latency of PostgreSQL, Temporal and Kafka, and the state of the platform processes (Temporal worker, relay, projector). Public, for load balancers and monitors: a key that is sent is checked (401 when invalid; `caller` names it when valid), which makes this the place to test a new key; called with a key it counts as an integration route (its rate window). 503 SERVICE_UNAVAILABLE naming what is down or lagging, with the whole report in details, when anything is not ok. GET /v1/health answers the same in the developer envelope.',
    responses,
    errors: { 503: 'A service or platform process is down or lagging; details hold the whole report' },
    handler: async ({ deps, caller }) => ({ data: await healthReport(deps, caller) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/health',
    auth: 'public',
    tags: ['health'],
    summary: 'Health of the platform (developer envelope)',
    description:
      'The report of GET /api/health (services, platform processes, `caller` when a valid key is sent; 401 for an invalid one) in the developer envelope, whose meta.rate_limit is on every answer: without a key the call is counted in the anonymous per-IP bucket (DEVELOPER_ANONYMOUS_RATE_PER_HOUR). 503 SERVICE_UNAVAILABLE, with the report in details, when a service or process is down or lagging.',
    responses,
    errors: { 503: 'A service or platform process is down or lagging; details hold the whole report' },
    handler: async ({ deps, caller }) => ({ data: await healthReport(deps, caller) }),
  }),
];
