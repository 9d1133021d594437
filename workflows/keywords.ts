/**
 * Keyword research (POST /api/seo-dashboard/keywords/research): what the
 * platform really has about the seeds — the research corpus's term
 * statistics and, when configured, the keyword vendor's ideas (one metered
 * request) — merged with each number's source, and the keywords' intent and
 * clusters from one metered AI call. A task like every generating route.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ContentActivities } from '../activities/content';
import type { KeywordActivities } from '../activities/keywords';
import type { KeywordResearchRequest } from '../domain/content/types';
import type { Intent } from '../domain/generation/keywords';
import { keywordReport, reportKeywords } from '../domain/keywords/report';
import { PAID_CALL_RETRY, READ_RETRY } from './retry';
import { runTask, TaskInput } from './task-runner';

const reads = proxyActivities<KeywordActivities>({ startToCloseTimeout: '1m', retry: READ_RETRY });
// The keyword vendor and the AI call are paid: metered under the activity's idempotency key, few retries.
const paidData = proxyActivities<KeywordActivities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '15s',
  retry: PAID_CALL_RETRY,
});
const paidAi = proxyActivities<ContentActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '15s',
  retry: PAID_CALL_RETRY,
});

export async function keywordResearchWorkflow(
  input: TaskInput<KeywordResearchRequest>,
): Promise<Record<string, unknown>> {
  return runTask('keyword_research', input, async (progress) => {
    const r = input.request;
    await progress(`Measuring ${r.seed_keywords.length} seed keywords in the research corpus`);
    const corpus = await reads.corpusKeywordStats({ seeds: r.seed_keywords });
    await progress('Asking the keyword vendor for ideas, volumes and competition');
    const vendor = await paidData.keywordIdeas({
      userId: input.userId,
      seeds: r.seed_keywords,
      language: r.language,
      location: r.location,
    });
    const { keywords } = reportKeywords({ ...r, corpus, vendor });
    await progress(`Classifying the intent of ${keywords.length} keywords`);
    const out = await paidAi.generate({
      userId: input.userId,
      purpose: 'seo_dashboard.keyword_intent',
      call: { kind: 'keyword_insights', input: { keywords, language: r.language } },
    });
    const insights = out.output as {
      keywords: Array<{ keyword: string; intent: Intent; intent_signal?: string }>;
      clusters: unknown;
    };
    return {
      ...keywordReport({ ...r, corpus, vendor, insights, intentBy: out.provenance }),
      metadata: { ...out.provenance, keyword_vendor: vendor.configured ? vendor.name : null },
    };
  });
}
