/** Shared helpers of the calendar integration tests: an API with the calendars projection, calls with a key. */
import pino from 'pino';
import { call, JsonResponse } from '../../support/http';
import { bearer, startTestApi, TestApi, TestApiOptions } from '../../support/api';
import { calendarsProjection } from '../../../projections/calendars';
import { webhookDeliveriesProjection } from '../../../projections/webhook-deliveries';

export const C = '/v1/calendar';

export async function startCalendarApi(opts: TestApiOptions = {}): Promise<TestApi> {
  return startTestApi({
    logger: pino({ level: 'silent' }),
    projections: [calendarsProjection, webhookDeliveriesProjection],
    ...opts,
  });
}

export type Client = {
  get(path: string): Promise<JsonResponse>;
  post(path: string, json?: unknown): Promise<JsonResponse>;
  patch(path: string, json?: unknown): Promise<JsonResponse>;
  del(path: string): Promise<JsonResponse>;
};

/** Calls under /v1/calendar with a credential (null: none). */
export function client(api: TestApi, key: string | null): Client {
  const h = key ? bearer(key) : {};
  const u = (p: string) => `${api.url}${C}${p}`;
  return {
    get: (p) => call(u(p), { headers: h }),
    post: (p, json = {}) => call(u(p), { method: 'POST', headers: h, json }),
    patch: (p, json = {}) => call(u(p), { method: 'PATCH', headers: h, json }),
    del: (p) => call(u(p), { method: 'DELETE', headers: h }),
  };
}

export const inHours = (h: number, from = Date.now()) => new Date(from + h * 3600_000).toISOString();
