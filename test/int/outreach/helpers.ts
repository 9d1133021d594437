/** Shared pieces of the outreach int tests: an API with the outreach projections, users with session tokens. */
import { bearer, startTestApi, TestApi, TestApiOptions } from '../../support/api';
import { call, JsonResponse } from '../../support/http';
import { outreachProjection } from '../../../projections/outreach';
import { outreachActivityProjection } from '../../../projections/outreach-activity';

export const BASE = '/api/v1/backlink-outreach';

export interface OutreachApi extends TestApi {
  /** A user and a session token for the outreach family. */
  session(): Promise<{ userId: string; token: string }>;
  req(method: string, path: string, token: string | null, json?: unknown): Promise<JsonResponse>;
}

export async function startOutreachApi(opts: TestApiOptions = {}): Promise<OutreachApi> {
  const api = await startTestApi({
    ...opts,
    projections: [outreachProjection, outreachActivityProjection, ...(opts.projections ?? [])],
  });
  return Object.assign(api, {
    async session() {
      const u = await api.user('pro');
      const s = await call(`${api.url}/api/settings/sessions`, { method: 'POST', headers: bearer(u.key) });
      if (s.status !== 201) throw new Error(`session: ${s.status} ${JSON.stringify(s.body)}`);
      return { userId: u.userId, token: s.body.data.token as string };
    },
    req(method: string, path: string, token: string | null, json?: unknown) {
      return call(`${api.url}${BASE}${path}`, { method, headers: token ? bearer(token) : {}, json });
    },
  });
}
