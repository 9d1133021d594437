/**
 * Content generation of the developer API (`/v1/content/generate` and
 * `/v1/content/generate/batch`). Each generated text is stored as a content
 * record (version 1, ContentCreated) by the workflow, so GET /v1/content/{id}
 * finds it. The batch runs its topics one after the other and reports a
 * result per topic: a topic that fails (a plan limit reached mid-batch, a
 * vendor failure) is reported with its failure code, the others complete.
 */
import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type { ContentActivities } from '../activities/content';
import { PLATFORMS, Platform } from '../domain/content/platforms';
import { LENGTH_WORDS, DEFAULT_WORDS, searchedAs } from '../domain/content/types';
import type { BatchRequest, GenerateRequest, Provenance } from '../domain/content/types';
import { PAID_CALL_RETRY, READ_RETRY } from './retry';
import { failureCodeOf, runTask, TaskInput } from './task-runner';

const reads = proxyActivities<ContentActivities>({ startToCloseTimeout: '2m', retry: READ_RETRY });
const paid = proxyActivities<ContentActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '15s',
  retry: PAID_CALL_RETRY,
});

export type GenerateJob = GenerateRequest & { content_id: string };
export type BatchJob = BatchRequest & { content_ids: string[] };
type Result = Record<string, unknown>;

/** The keyword an SEO-optimized text targets: the topic when short, else its first three content words. */
export function focusKeyword(topic: string): string {
  const words = topic
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length <= 4) return words.join(' ');
  const stop = new Set(['a', 'an', 'the', 'how', 'to', 'for', 'of', 'and', 'in', 'on', 'with', 'why', 'what', 'your']);
  return words
    .filter((w) => !stop.has(w))
    .slice(0, 3)
    .join(' ');
}

async function generateOne(userId: string, taskId: string, job: GenerateJob): Promise<Result> {
  const found = await reads.findSources({ query: [job.topic, ...job.key_points].join(' '), limit: 6 });
  let content: string;
  let title: string | null = null;
  let extra: Result = {};
  let provenance: Provenance;
  const keywords = job.seo_optimized ? [focusKeyword(job.topic)] : [];
  if (job.type === 'blog_post') {
    const words = LENGTH_WORDS[job.length] ?? DEFAULT_WORDS;
    const out = await paid.generate({
      userId,
      purpose: 'v1.content.blog_post',
      call: {
        kind: 'article',
        input: {
          topic: job.topic,
          keywords,
          // One section per key point: the point heads its section and is stated in it, as the user wrote it.
          sections: job.key_points.length
            ? job.key_points.map((p) => ({ heading: p.charAt(0).toUpperCase() + p.slice(1), keyPoints: [p] }))
            : undefined,
          sources: found.sources,
          tone: job.tone,
          targetWords: words,
        },
      },
    });
    content = out.output as string;
    title = /^#\s+(.+)$/m.exec(content)?.[1]?.trim() ?? null;
    provenance = out.provenance;
    extra = {
      target_word_count: words,
      sources: out.citations.map((s) => ({ index: s.index, title: s.title, url: s.url })),
    };
  } else {
    const platform = (job.platform ?? 'profnet') as Platform;
    const out = await paid.generate({
      userId,
      purpose: `v1.content.social_media.${platform}`,
      call: {
        kind: 'platform_post',
        input: {
          platform,
          topic: job.topic,
          tone: job.tone,
          key_points: job.key_points,
          include_hashtags: job.include_hashtags,
          include_cta: job.include_cta,
          ...PLATFORMS[platform],
          sources: found.sources,
        },
      },
    });
    const post = out.output as Result;
    content = String(post.content);
    provenance = out.provenance;
    extra = {
      platform,
      hashtags: post.hashtags ?? [],
      call_to_action: post.call_to_action ?? null,
      character_count: [...content].length,
      character_limit: PLATFORMS[platform].max_characters,
      sources: post.sources ?? [],
    };
  }
  let research: Result | undefined;
  if (job.include_research) {
    const r = await paid.generate({
      userId,
      purpose: 'v1.content.research',
      call: {
        kind: 'research',
        input: { topic: job.topic, keywords, sources: found.sources, web_search_queries: found.web_search_queries },
      },
    });
    research = { sources: found.sources, ...searchedAs(r.output as Result, found.web_search_queries) };
  }
  const scores = await reads.scoreText({ content, keywords });
  const metadata = {
    ...scores,
    ...extra,
    tone: job.tone,
    length: job.length,
    seo_optimized: job.seo_optimized,
    ...(keywords.length ? { focus_keyword: keywords[0] } : {}),
    ...provenance,
  };
  await reads.recordContent({
    userId,
    contentId: job.content_id,
    taskId,
    type: job.type,
    topic: job.topic,
    title,
    content,
    metadata,
  });
  return {
    content_id: job.content_id,
    type: job.type,
    topic: job.topic,
    title,
    content,
    metadata,
    version: 1,
    ...(research ? { research } : {}),
  };
}

export async function contentGenerateWorkflow(input: TaskInput<GenerateJob>): Promise<Result> {
  return runTask('content_generation', input, async (progress) => {
    await progress(`Generating a ${input.request.type.replace('_', ' ')} on "${input.request.topic}"`);
    const result = await generateOne(input.userId, input.taskId, input.request);
    await progress(`Stored as content ${input.request.content_id} (version 1)`);
    return result;
  });
}

export async function contentBatchWorkflow(input: TaskInput<BatchJob>): Promise<Result> {
  return runTask('content_batch', input, async (progress) => {
    const b = input.request;
    const items: Result[] = [];
    for (const [index, topic] of b.topics.entries()) {
      await progress(`Topic ${index + 1} of ${b.topics.length}: ${topic}`);
      try {
        const one = await generateOne(input.userId, input.taskId, {
          type: b.type,
          topic,
          key_points: [],
          tone: b.tone,
          length: b.length,
          seo_optimized: b.seo_optimized,
          platform: b.platform,
          include_hashtags: b.include_hashtags,
          include_cta: b.include_cta,
          include_research: false,
          content_id: b.content_ids[index],
        });
        items.push({ index, status: 'completed', ...one });
      } catch (err) {
        if (isCancellation(err)) throw err;
        items.push({ index, topic, status: 'failed', error: failureCodeOf(err) });
      }
    }
    const failed = items.filter((i) => i.status === 'failed').length;
    await progress(`Finished: ${items.length - failed} completed, ${failed} failed`);
    return {
      content: items,
      summary: { total: items.length, completed: items.length - failed, failed },
    };
  });
}
