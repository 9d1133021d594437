/**
 * Deep discovery (POST /discover/deep; workflow id `outreach-discover-<uuid>`):
 * a workflow because it may call the web-search vendor (outside world, paid).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { OutreachDiscoveryActivities } from '../activities/outreach-discovery';
import { PAID_CALL_RETRY } from './retry';

const search = proxyActivities<OutreachDiscoveryActivities>({
  startToCloseTimeout: '3m',
  heartbeatTimeout: '1m',
  retry: PAID_CALL_RETRY,
});

export const outreachDiscoverWorkflow = (a: { keyword: string; keywords: string[]; maxResults: number }) =>
  search.outreachDiscover(a);
