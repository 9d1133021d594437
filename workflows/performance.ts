/**
 * Search Console sync (POST /api/seo-dashboard/performance/sync): reads the
 * user's Search Console rows for a date range and stores them as the
 * domain's performance data. A task by the rule of api/kernel/tasks.ts; it
 * talks to the outside world, so it is a workflow. Search Console is free:
 * nothing is metered.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { PerformanceActivities } from '../activities/performance';
import { RECORD_RETRY } from './retry';
import { runTask, TaskInput } from './task-runner';

// Reading Search Console is free and the appends are idempotent: retry patiently, except what cannot succeed.
const sync = proxyActivities<PerformanceActivities>({
  startToCloseTimeout: '10m',
  heartbeatTimeout: '30s',
  retry: { ...RECORD_RETRY, maximumAttempts: 5 },
});

export interface SyncRequest {
  domain: string;
  site_url: string;
  start_date: string;
  end_date: string;
  import_id: string;
}

export async function performanceSyncWorkflow(input: TaskInput<SyncRequest>): Promise<Record<string, unknown>> {
  return runTask('performance_sync', input, async (progress) => {
    const r = input.request;
    await progress(`Reading Search Console rows of ${r.site_url} from ${r.start_date} to ${r.end_date}`);
    const out = await sync.syncSearchConsole({
      userId: input.userId,
      domain: r.domain,
      siteUrl: r.site_url,
      startDate: r.start_date,
      endDate: r.end_date,
      importId: r.import_id,
    });
    await progress(`Stored ${out.rows} rows in ${out.parts} parts`);
    return {
      import_id: r.import_id,
      domain: r.domain,
      site_url: r.site_url,
      source: 'search_console',
      rows_imported: out.rows,
      date_range: { start: r.start_date, end: r.end_date },
      truncated: out.truncated,
    };
  });
}
