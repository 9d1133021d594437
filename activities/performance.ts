/**
 * SEO performance data from Search Console: read the user's rows for a date
 * range (the user's own OAuth grant, stored encrypted) and append them as
 * PerformanceRowsImported events of the domain's stream, in parts of at most
 * PERFORMANCE_ROWS_PER_EVENT rows. Each part's event id comes from the
 * activity key, so a retried activity appends nothing twice.
 */
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import type { IntegrationCredentialStore } from '../infra/seo/credentials';
import type { SearchConsole } from '../infra/seo/search-console';
import { VendorNotConfiguredError } from '../infra/ai/errors';
import { PERFORMANCE_ROWS_PER_EVENT, performanceStream } from '../domain/events/seo';
import { activityKey, currentWorkflowId } from './tasks';
import { withHeartbeat } from './heartbeat';

export interface PerformanceActivityDeps {
  store: EventStore;
  credentials: IntegrationCredentialStore;
  /** Absent when SEARCH_CONSOLE_CLIENT_ID / _SECRET are not set. */
  searchConsole?: SearchConsole;
}

export const SEARCH_CONSOLE_VARIABLES = ['SEARCH_CONSOLE_CLIENT_ID', 'SEARCH_CONSOLE_CLIENT_SECRET'];

class NotConnectedError extends Error {
  readonly code = 'INVALID_REQUEST';
}

export function createPerformanceActivities(deps: PerformanceActivityDeps) {
  return {
    async syncSearchConsole(a: {
      userId: string;
      domain: string;
      siteUrl: string;
      startDate: string;
      endDate: string;
      importId: string;
    }): Promise<{ rows: number; parts: number; truncated: boolean }> {
      if (!deps.searchConsole) throw new VendorNotConfiguredError('search_console', SEARCH_CONSOLE_VARIABLES);
      const cred = await deps.credentials.get(a.userId, 'search_console');
      if (!cred) throw new NotConnectedError('Search Console is not connected: PUT /api/seo-dashboard/search-console');
      const sc = deps.searchConsole;
      const { rows, truncated } = await withHeartbeat(() =>
        sc.rows({ refreshToken: cred.secret, siteUrl: a.siteUrl, startDate: a.startDate, endDate: a.endDate }),
      );
      const parts = Math.ceil(rows.length / PERFORMANCE_ROWS_PER_EVENT);
      const key = activityKey();
      for (let part = 0; part < parts; part++) {
        await deps.store.appendOnce(
          performanceStream(a.userId, a.domain),
          {
            type: 'PerformanceRowsImported',
            eventId: uuidFromKey(`${key}/part-${part}`),
            data: {
              import_id: a.importId,
              user_id: a.userId,
              domain: a.domain,
              source: 'search_console',
              part: part + 1,
              parts,
              rows: rows.slice(part * PERFORMANCE_ROWS_PER_EVENT, (part + 1) * PERFORMANCE_ROWS_PER_EVENT),
            },
          },
          { user_id: a.userId, workflow_id: currentWorkflowId(), causation_id: key },
        );
      }
      return { rows: rows.length, parts, truncated };
    },
  };
}

export type PerformanceActivities = ReturnType<typeof createPerformanceActivities>;
