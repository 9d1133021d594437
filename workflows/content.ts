/**
 * Content generation of the general family (Document 1): blog writer,
 * research, professional-network posts, content strategy and personas. Each
 * is a task (workflows/task-runner.ts: TaskStarted … TaskCompleted) the API
 * runs by the rule of api/kernel/tasks.ts (answer in time, else 202 and poll).
 * One metered AI call per generation; research reads are free.
 * Each returns the body the route answers with (`data`), which is also the
 * completed task's `result`.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ContentActivities } from '../activities/content';
import { RESEARCH_DEPTHS, searchedAs, wordsWanted } from '../domain/content/types';
import type {
  BlogResearchRequest,
  BlogWriterRequest,
  PersonasRequest,
  ProfnetRequest,
  StrategyRequest,
} from '../domain/content/types';
import { PLATFORMS } from '../domain/content/platforms';
import { PAID_CALL_RETRY, READ_RETRY } from './retry';
import { runTask, TaskInput } from './task-runner';

// Reading sources and scoring text: free and safe to repeat.
const reads = proxyActivities<ContentActivities>({ startToCloseTimeout: '2m', retry: READ_RETRY });
// The metered AI call: charged once per activity (idempotency key); few retries, none for plan limits.
const paid = proxyActivities<ContentActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '15s',
  retry: PAID_CALL_RETRY,
});

type Result = Record<string, unknown>;
const sourceRefs = (sources: Array<{ title: string; url: string; index?: number }>) =>
  sources.map((s) => ({ index: s.index, title: s.title, url: s.url }));

export async function blogWriterWorkflow(input: TaskInput<BlogWriterRequest>): Promise<Result> {
  return runTask('blog_writer', input, async (progress) => {
    const r = input.request;
    const words = wordsWanted(r);
    await progress(`Researching "${r.topic}"`);
    const found = await reads.findSources({ query: [r.topic, ...r.keywords].join(' '), limit: 6 });
    await progress(`Writing about ${words} words from ${found.sources.length} sources`);
    const out = await paid.generate({
      userId: input.userId,
      purpose: 'blog_writer.article',
      call: {
        kind: 'article',
        input: {
          topic: r.topic,
          keywords: r.keywords,
          sources: found.sources,
          tone: r.tone,
          audience: r.target_audience,
          targetWords: words,
          content_type: r.content_type,
        },
      },
    });
    const content = out.output as string;
    await progress('Measuring readability and SEO');
    const scores = await reads.scoreText({ content, keywords: r.keywords });
    return {
      content,
      metadata: {
        ...scores,
        target_word_count: words,
        content_type: r.content_type,
        tone: r.tone,
        keywords: r.keywords,
        ...out.provenance,
        sources: sourceRefs(out.citations),
      },
    };
  });
}

export async function blogWriterResearchWorkflow(input: TaskInput<BlogResearchRequest>): Promise<Result> {
  return runTask('blog_writer_research', input, async (progress) => {
    const r = input.request;
    const limit = RESEARCH_DEPTHS[r.research_depth] ?? RESEARCH_DEPTHS.standard;
    await progress(`Searching ${r.sources.join(', ')} sources on "${r.topic}" (${r.research_depth})`);
    const found = await reads.findSources({ query: r.topic, limit, kinds: r.sources });
    await progress(`Found ${found.sources.length} sources; analysing keywords, competitors and angles`);
    const out = await paid.generate({
      userId: input.userId,
      purpose: 'blog_writer.research',
      call: {
        kind: 'research',
        input: { topic: r.topic, sources: found.sources, web_search_queries: found.web_search_queries },
      },
    });
    const web = found.searched.includes('+');
    return {
      topic: r.topic,
      research_depth: r.research_depth,
      sources: found.sources,
      ...searchedAs(out.output as Result, found.web_search_queries),
      metadata: {
        ...out.provenance,
        searched: found.searched,
        source_kinds: r.sources,
        sources_found: found.sources.length,
        sources_wanted: limit,
        ...(r.sources.includes('web') && !web
          ? {
              web_search:
                'not configured: "web" sources are sample documents of the research corpus written as web pages (source_type "sample"; set WEB_SEARCH_PROVIDER and WEB_SEARCH_API_KEY for live web search)',
            }
          : {}),
      },
    };
  });
}

export async function profnetPostWorkflow(input: TaskInput<ProfnetRequest>): Promise<Result> {
  return runTask('profnet_writer', input, async (progress) => {
    const r = input.request;
    await progress(`Researching "${r.topic}"`);
    const found = await reads.findSources({ query: r.topic, limit: 4 });
    await progress('Writing the post');
    const out = await paid.generate({
      userId: input.userId,
      purpose: 'profnet_writer.post',
      call: {
        kind: 'platform_post',
        input: {
          platform: 'profnet',
          topic: r.topic,
          content_type: r.content_type,
          tone: r.tone,
          audience: r.target_audience,
          include_hashtags: r.include_hashtags || r.hashtags.length > 0,
          hashtags: r.hashtags,
          include_cta: true,
          ...PLATFORMS.profnet,
          sources: found.sources,
        },
      },
    });
    const post = out.output as Result;
    const content = String(post.content);
    const scores = await reads.scoreText({ content, keywords: [] });
    return {
      content,
      hashtags: post.hashtags ?? [],
      call_to_action: post.call_to_action ?? null,
      metadata: {
        ...scores,
        character_count: [...content].length,
        character_limit: PLATFORMS.profnet.max_characters,
        content_type: r.content_type,
        tone: r.tone,
        ...out.provenance,
        sources: post.sources ?? [],
      },
    };
  });
}

export async function contentStrategyWorkflow(input: TaskInput<StrategyRequest>): Promise<Result> {
  return runTask('content_strategy', input, async (progress) => {
    const r = input.request;
    await progress(`Researching strategy for ${r.business_type}`);
    const query = [r.business_type, r.target_audience, ...r.goals, ...r.content_types, 'content strategy']
      .filter(Boolean)
      .join(' ')
      .replace(/_/g, ' ');
    const found = await reads.findSources({ query, limit: 10 });
    await progress(`Drafting the strategy from ${found.sources.length} sources`);
    const out = await paid.generate({
      userId: input.userId,
      purpose: 'content_strategy.generate',
      call: { kind: 'strategy', input: { ...r, sources: found.sources } },
    });
    return {
      strategy: out.output,
      business_type: r.business_type,
      target_audience: r.target_audience ?? null,
      goals: r.goals,
      content_types: r.content_types,
      metadata: { ...out.provenance, sources_read: found.sources.length },
    };
  });
}

export async function contentPersonasWorkflow(input: TaskInput<PersonasRequest>): Promise<Result> {
  return runTask('content_personas', input, async (progress) => {
    const r = input.request;
    const d = r.target_demographics;
    await progress(`Researching ${d.profession ?? 'buyers'} in ${r.business_niche}`);
    const query = [r.business_niche, d.profession, ...d.pain_points, 'buyer persona'].filter(Boolean).join(' ');
    const found = await reads.findSources({ query, limit: 8 });
    await progress('Developing the persona');
    const out = await paid.generate({
      userId: input.userId,
      purpose: 'content_strategy.personas',
      call: {
        kind: 'personas',
        input: {
          business_niche: r.business_niche,
          age_range: d.age_range,
          profession: d.profession,
          pain_points: d.pain_points,
          sources: found.sources,
        },
      },
    });
    return {
      ...(out.output as Result),
      business_niche: r.business_niche,
      target_demographics: d,
      metadata: { ...out.provenance, sources_read: found.sources.length },
    };
  });
}
