/**
 * The asynchronous blog writer (Document 2, /api/blog): research, outline and
 * medium generation. Workflow id = task id; progress messages are events the
 * task projection turns into `progress_messages`, and a query. They return
 * domain results (domain/blog/types.ts); the API shapes the spec's bodies
 * (api/blog/tasks.ts adds `success`).
 */
import { proxyActivities } from '@temporalio/workflow';
import { PAID_CALL_RETRY, READ_RETRY } from './retry';
import type { BlogActivities } from '../activities/blog';
import type {
  MediumRequest,
  MediumResult,
  OutlineRequest,
  OutlineResult,
  ResearchRequest,
  ResearchResult,
} from '../domain/blog/types';
import { runTask, TaskInput } from './task-runner';
import { renumberCitations, withoutRepeats } from '../domain/generation/article';
import { markdownWordCount } from '../domain/generation/text';

// Reading sources is free and safe to repeat.
const reads = proxyActivities<BlogActivities>({
  startToCloseTimeout: '2m',
  retry: READ_RETRY,
});
// Paid vendor calls: metered under the activity's idempotency key, so a retry is never charged twice;
// a few retries only, and a plan limit (UsageLimitExceeded) is not retried at all.
const paid = proxyActivities<BlogActivities>({
  startToCloseTimeout: '5m',
  // The activity heartbeats every 3 s while it waits on the vendor (activities/heartbeat.ts): a dead worker's
  // call is retried after 15 s, not 5 min.
  heartbeatTimeout: '15s',
  retry: PAID_CALL_RETRY,
});

export async function blogResearchWorkflow(input: TaskInput<ResearchRequest>): Promise<ResearchResult> {
  return runTask('blog_research', input, async (progress) => {
    const r = input.request;
    await progress(`Starting research on "${r.topic || r.keywords.join(', ')}"`);
    const found = await reads.gatherSources({ userId: input.userId, request: r });
    const sources = found.sources;
    await progress(`Found ${sources.length} relevant sources; analysing keywords and competitors`);
    const summary = await paid.analyzeResearch({
      userId: input.userId,
      request: r,
      sources,
      webSearchQueries: found.web_search_queries,
    });
    await progress(
      `Identified ${summary.keyword_analysis.primary_keywords.length} primary keywords and ${summary.suggested_angles.length} content angles`,
    );
    return { sources, ...summary };
  });
}

export async function blogOutlineWorkflow(input: TaskInput<OutlineRequest>): Promise<OutlineResult> {
  return runTask('blog_outline', input, async (progress) => {
    await progress(`Drafting an outline from ${input.request.research.sources?.length ?? 0} research sources`);
    const draft = await paid.draftOutline({ userId: input.userId, request: input.request });
    await progress(`Drafted ${draft.outline.length} sections; mapping sources and scoring the outline`);
    const result = await reads.assessOutline({ request: input.request, draft });
    await progress('Outline ready');
    return result;
  });
}

export async function blogMediumWorkflow(input: TaskInput<MediumRequest>): Promise<MediumResult> {
  return runTask('blog_medium', input, async (progress) => {
    const r = input.request;
    const sections = [];
    for (const [i, section] of r.sections.entries()) {
      await progress(`Writing section ${i + 1} of ${r.sections.length}: ${section.heading}`);
      sections.push(await paid.writeMediumSection({ userId: input.userId, request: r, index: i }));
    }
    const words = sections.reduce((a, s) => a + s.wordCount, 0);
    await progress(`Finished ${sections.length} sections, ${words} words`);
    // Sections are written one by one: a sentence an earlier section said is not said again, and each section
    // numbered its own sources from 1, so the post gets one numbering ([2] is the same source everywhere).
    const post = renumberCitations(withoutRepeats(sections)).map((s) => ({
      ...s,
      wordCount: markdownWordCount(s.content),
    }));
    return { title: r.title, sections: post, total_words: post.reduce((a, s) => a + markdownWordCount(s.content), 0) };
  });
}
