/**
 * The three blog processes on the real Temporal server with the offline
 * provider: result shapes of Document 2, progress while running, task events
 * projected, and one metered charge per AI call.
 */
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { createEventStore } from '../../../infra/eventstore';
import { Relay } from '../../../infra/relay/relay';
import { ensureTopics } from '../../../infra/kafka-topics';
import { EVENT_AREAS } from '../../../domain/events';
import { findProjection } from '../../../projections';
import { ProjectionConsumer } from '../../../projections/projector';
import { markdownWordCount } from '../../../domain/generation';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testKafka, testLogger, testTemporal } from '../../support/env';
import { startBlogWorker } from '../../support/blog-worker';
import { blogMediumWorkflow, blogOutlineWorkflow, blogResearchWorkflow } from '../../../workflows';
import type { TaskInput } from '../../../workflows/task-runner';
import type { MediumRequest, Source } from '../../../domain/blog/types';
import { projectedTask } from '../../support/wait';

jest.setTimeout(180000);

describe('blog workflows (local provider)', () => {
  let s: IsolatedSchema;
  let kafka: Kafka;
  let relay: Relay;
  let relayRun: Promise<void>;
  let consumer: ProjectionConsumer;
  let worker: Awaited<ReturnType<typeof startBlogWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  const user = `writer-${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    s = await isolatedSchema();
    kafka = testKafka();
    await ensureTopics(kafka, s.topicPrefix, EVENT_AREAS, 3, 1);
    relay = new Relay(s.db, createEventStore(s.db), kafka, testLogger(), { topicPrefix: s.topicPrefix });
    await relay.start();
    relayRun = relay.run();
    consumer = new ProjectionConsumer(s.db, kafka, findProjection('task-status')!, testLogger(), {
      topicPrefix: s.topicPrefix,
    });
    await consumer.start();
    worker = await startBlogWorker(s.db, { limits: { tokens: 10_000_000 } });
    temporal = await testTemporal();
  });

  afterAll(async () => {
    await temporal.connection.close();
    await worker.stop();
    relay.stop();
    await relayRun;
    await relay.close();
    await consumer.stop();
    await s.drop();
  });

  const run = async <R>(workflow: (input: TaskInput<R>) => Promise<Record<string, unknown>>, request: R) => {
    const taskId = randomUUID();
    const handle = await temporal.client.workflow.start(workflow, {
      taskQueue: worker.taskQueue,
      workflowId: taskId,
      args: [{ taskId, userId: user, request }],
    });
    const result = await handle.result();
    return { taskId, result };
  };

  // Until a deadline, not for a number of polls: the projection usually follows in milliseconds, a loaded machine's
  // in seconds.
  const waitTask = (taskId: string) => projectedTask(s.db, user, taskId, 'completed');

  let research: Record<string, unknown>;

  it('research returns the Research result with real corpus sources, and the task record shows progress', async () => {
    const { taskId, result } = await run(blogResearchWorkflow, {
      keywords: ['content calendar', 'posting frequency'],
      topic: 'Planning a content calendar',
      industry: 'marketing',
      target_audience: 'small business marketers',
      tone: 'professional',
      word_count_target: 1200,
    });
    research = result;
    // A domain result (domain/blog/types.ts): the spec's `success` is added by the API (test/int/blog/routes).
    expect(result).not.toHaveProperty('success');
    const sources = result.sources as Record<string, unknown>[];
    expect(sources.length).toBeGreaterThan(2);
    for (const src of sources) {
      expect(Object.keys(src)).toEqual(
        expect.arrayContaining([
          'title',
          'url',
          'excerpt',
          'credibility_score',
          'published_at',
          'index',
          'source_type',
        ]),
      );
      expect(src.url).toMatch(/^http:\/\/127\.0\.0\.1:8000\/api\/research\/corpus\/[a-z0-9-]+$/);
    }
    expect(result).toMatchObject({
      keyword_analysis: {
        primary_keywords: expect.any(Array),
        secondary_keywords: expect.any(Array),
        search_volume: expect.any(String),
      },
      competitor_analysis: {
        top_competitors: expect.any(Array),
        content_gaps: expect.any(Array),
        opportunities: expect.any(Array),
      },
      suggested_angles: expect.any(Array),
      search_queries: expect.any(Array),
      // No web-search vendor: nothing was searched on the web, whatever queries are suggested.
      grounding_metadata: { grounding_chunks: expect.any(Array), web_search_queries: [] },
    });
    expect((result.search_queries as string[]).length).toBeGreaterThan(0);
    expect(sources.every((src) => src.source_type === 'sample' && src.credibility_score === null)).toBe(true);
    const task = await waitTask(taskId);
    expect(task.task_type).toBe('blog_research');
    expect(task.progress_messages.length).toBeGreaterThanOrEqual(3);
    expect(task.progress_messages[0].message).toContain('Planning a content calendar');
    expect(task.result).toEqual(result);
  });

  it('outline maps the research sources into sections and scores coverage', async () => {
    const { result } = await run(blogOutlineWorkflow, {
      research,
      word_count: 1200,
      persona: { tone: 'friendly', audience: 'founders' },
    });
    expect(result).not.toHaveProperty('success');
    const outline = result.outline as {
      id: string;
      heading: string;
      references: unknown[];
      target_words: number;
      key_points: string[];
    }[];
    expect(outline.length).toBeGreaterThan(2);
    expect(outline.reduce((a, s) => a + s.target_words, 0)).toBe(1200);
    expect((result.title_options as string[]).length).toBeGreaterThan(0);
    expect(result).toMatchObject({
      source_mapping_stats: {
        total_sources_mapped: expect.any(Number),
        coverage_percentage: expect.any(Number),
        // The corpus's sources are sample documents: no credibility claimed, so no mean and no high band.
        average_relevance_score: null,
        high_confidence_mappings: 0,
      },
      grounding_insights: {
        confidence_analysis: { high_confidence_sources: 0, medium_confidence_sources: 0, low_confidence_sources: 0 },
        authority_analysis: { academic_sources: 0, industry_sources: 0, government_sources: 0 },
      },
      optimization_results: {
        overall_quality_score: expect.any(Number),
        improvements_made: expect.any(Array),
        optimization_focus: expect.any(String),
      },
      research_coverage: {
        sources_utilized: expect.any(Number),
        content_gaps_identified: expect.any(Number),
        competitive_advantages: expect.any(Array),
      },
    });
  });

  it('medium generation writes each section near its word budget, citing only given sources, one charge per section', async () => {
    const sources = (research.sources as Source[]).slice(0, 3);
    const request: MediumRequest = {
      title: 'How to plan a content calendar',
      globalTargetWords: 600,
      tone: 'professional',
      audience: 'marketing managers',
      sections: [
        {
          id: 'a',
          heading: 'Why a calendar matters',
          keyPoints: ['consistency', 'planning ahead'],
          targetWords: 200,
          references: sources,
        },
        {
          id: 'b',
          heading: 'Choosing a posting frequency',
          keyPoints: ['audience habits', 'capacity'],
          targetWords: 200,
          references: sources,
        },
        { id: 'c', heading: 'Reviewing results', keyPoints: ['metrics', 'adjusting'], targetWords: 200 },
      ],
    };
    const { taskId, result } = await run(blogMediumWorkflow, request);
    const sections = result.sections as {
      id: string;
      heading: string;
      content: string;
      wordCount: number;
      sources: { url: string }[];
    }[];
    expect(sections.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    for (const sec of sections) {
      expect(sec.wordCount).toBe(markdownWordCount(sec.content));
      // The budget is an upper bound: the writer states the points and what the sources say about them, no filler.
      expect(sec.wordCount).toBeGreaterThan(0);
      expect(sec.wordCount).toBeLessThanOrEqual(220);
      if (sec.sources.length) expect(sec.content).toMatch(/\[\d+\]/);
    }
    const given = new Set(sources.map((x) => x.url));
    for (const sec of sections.slice(0, 2)) for (const cited of sec.sources) expect(given.has(cited.url)).toBe(true);
    const charges = await s
      .db('es_events')
      .where({ type: 'UsageRecorded' })
      .whereRaw("data->>'idempotency_key' LIKE ?", [`${taskId}/%`]);
    expect(charges).toHaveLength(3);
    expect(new Set(charges.map((c) => c.data.idempotency_key)).size).toBe(3);
    expect(charges.every((c) => c.data.provider === 'local' && Number(c.data.cost) === 0)).toBe(true);
  });
});
