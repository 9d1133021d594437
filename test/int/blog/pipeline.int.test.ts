/**
 * The asynchronous blog writer as a chain on the real stack (Temporal, PostgreSQL, the API over HTTP): research →
 * outline (its result sent as returned) → section generate (an outline section as returned) → medium (the outline's
 * sections as returned, snake_case, polled to completion) → SEO analysis of the written post with the research.
 * At each hop the next step must have used what the previous one answered: sources, key points, word targets
 * (the writer never goes beyond +10 % of a section's target; the targets count against the 1000-word cap),
 * references; and the labels stay honest (sample sources claim no credibility, no web search is claimed without a
 * vendor).
 */
import { bearer, startTestApi, TestApi } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startTestWorker, testLogger, testTemporal, uniq } from '../../support/env';
import { call, JsonResponse } from '../../support/http';
import { createActivities } from '../../../activities';
import { createEventStore } from '../../../infra/eventstore';
import { PostgresUsageMeter } from '../../../infra/quota/meter';
import { gatewayMeter } from '../../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';
import { taskStatusProjection } from '../../../projections/task-status';
import { sectionContinuityProjection } from '../../../projections/section-continuity';
import { markdownWordCount } from '../../../domain/generation';
import { waitFor } from '../../support/wait';

jest.setTimeout(240000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };
const BASE = 'http://127.0.0.1:8000';

interface Src {
  title: string;
  url: string;
  excerpt: string;
  credibility_score: number | null;
  source_type: string;
  sample_of?: string;
  index: number;
}
interface OutlineSection {
  id: string;
  heading: string;
  subheadings: string[];
  key_points: string[];
  keywords: string[];
  target_words: number;
  references: Src[];
}

/** A key point as the text carries it: lower case, without its closing punctuation. */
const point = (p: string) =>
  p
    .trim()
    .replace(/[.;:!?]+$/, '')
    .toLowerCase();
/**
 * The writer's tolerance: a section never runs past its target by more than 10 % (docs/providers.md). The targets
 * here (400 words over the outline) differ from the 150 words a section gets without one.
 */
const fits = (words: number, target: number) => words > 0 && words <= Math.floor(target * 1.1);

describe('blog writer chain: each answer is the next request', () => {
  let schema: IsolatedSchema;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    // One worker for the task workflows (research, outline, medium) and the synchronous section workflows.
    const store = createEventStore(schema.db);
    const meter = new PostgresUsageMeter(schema.db, store, async () => ({}));
    const gateway = createAiGateway({ local: createLocalProvider(), meter: gatewayMeter(meter) });
    const research = createResearchProvider({
      corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: BASE }),
    });
    worker = await startTestWorker(
      createActivities({
        logger: testLogger(),
        tasks: { store },
        blog: { gateway, research },
        blogSync: { gateway, research, store },
      }),
      uniq('blog-chain'),
    );
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, sectionContinuityProjection],
      deps: {
        workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue },
        corpus: research.corpus,
        aiProvider: 'local',
      },
      settings: RATES,
    });
    key = (await api.user('pro')).key;
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await schema?.drop();
  });

  const post = (path: string, json: unknown) =>
    call(`${api.url}${path}`, { method: 'POST', headers: bearer(key), json });
  /** Starts a task and polls its status route until it is done; answers the completed task record. */
  const runTask = async (segment: string, body: unknown): Promise<JsonResponse> => {
    const start = await post(`/api/blog/${segment}/start`, body);
    expect([start.status, start.body.status]).toEqual([200, 'started']);
    const r = await waitFor(
      `the ${segment} task to finish`,
      async () => {
        const r = await call(`${api.url}/api/blog/${segment}/status/${start.body.task_id}`, { headers: bearer(key) });
        return r.status === 200 && ['completed', 'failed', 'cancelled'].includes(r.body.status) && r;
      },
      120000,
    );
    expect([r.body.status, r.body.error]).toEqual(['completed', undefined]);
    return r;
  };

  it('research → outline → section → medium → SEO', async () => {
    // ---- research ----
    const researched = await runTask('research', {
      topic: 'Planning a content calendar',
      keywords: ['content calendar', 'posting frequency'],
      industry: 'marketing',
      target_audience: 'small business marketers',
    });
    const research = researched.body.result;
    const sources = research.sources as Src[];
    expect(sources.length).toBeGreaterThan(2);
    // Honest labels: offline, every source is a sample document claiming no credibility, and no web search ran.
    for (const s of sources) {
      expect(s).toMatchObject({ source_type: 'sample', credibility_score: null, url: expect.stringContaining(BASE) });
      expect(['industry', 'academic', 'government', 'web']).toContain(s.sample_of);
    }
    expect(research.grounding_metadata.web_search_queries).toEqual([]);
    expect(research.search_queries.length).toBeGreaterThan(0);
    expect(research.competitor_analysis.top_competitors).toEqual([]);
    for (const g of research.grounding_metadata.grounding_chunks) expect(g.confidence_score).toBeLessThanOrEqual(0.5);

    // ---- outline: the research result, whole, as the status route answered it ----
    const outlined = await runTask('outline', { research, word_count: 400 });
    const outline = outlined.body.result.outline as OutlineSection[];
    expect(outline.length).toBeGreaterThanOrEqual(3);
    expect(outline.reduce((n, s) => n + s.target_words, 0)).toBe(400);
    const researchUrls = new Set(sources.map((s) => s.url));
    const referenced = outline.flatMap((s) => s.references);
    expect(referenced.length).toBeGreaterThan(0);
    for (const r of referenced) expect(researchUrls.has(r.url)).toBe(true); // the outline used the research's sources
    for (const s of outline) expect(s.key_points.length).toBeGreaterThan(0);
    // Sample references are unrated and no authority.
    expect(outlined.body.result.grounding_insights).toMatchObject({
      confidence_analysis: { high_confidence_sources: 0, medium_confidence_sources: 0, low_confidence_sources: 0 },
      authority_analysis: { academic_sources: 0, industry_sources: 0, government_sources: 0 },
    });
    expect(outlined.body.result.source_mapping_stats.average_relevance_score).toBeNull();

    // ---- section generate: one outline section exactly as returned ----
    const one = outline.find((s) => s.references.length > 0) ?? outline[0];
    const section = await post('/api/blog/section/generate', {
      section: one,
      keywords: research.keyword_analysis.primary_keywords,
    });
    expect(section.status).toBe(200);
    const md = section.body.markdown as string;
    expect(section.body.section_id).toBe(one.id);
    const mdWords = markdownWordCount(md);
    expect([mdWords, fits(mdWords, one.target_words)]).toEqual([mdWords, true]);
    for (const p of one.key_points) expect(md.toLowerCase()).toContain(point(p));
    // The medium route's spelling is refused here by name, not ignored.
    const camel = await post('/api/blog/section/generate', { section: { id: 'c', heading: 'C', keyPoints: ['x'] } });
    expect([camel.status, JSON.stringify(camel.body.error.details)]).toEqual([
      400,
      expect.stringContaining('section.keyPoints'),
    ]);
    const refUrls = new Set(one.references.map((r) => r.url));
    for (const c of section.body.citations) expect(refUrls.has(c.url)).toBe(true);

    // ---- medium: the outline's target_words are read (they count against the 1000-word cap) ----
    const tripled = await post('/api/blog/generate/medium/start', {
      title: 'T',
      sections: outline.map((s) => ({ ...s, target_words: s.target_words * 3 })),
    });
    expect([tripled.status, tripled.body.error.message]).toEqual([400, expect.stringContaining('asks for 1200')]);

    // ---- medium: a mixed or misspelt body is refused by name, not half read ----
    const mixed = await post('/api/blog/generate/medium/start', {
      title: 'T',
      sections: [{ ...outline[0], keyPoints: ['x'] }],
    });
    expect([mixed.status, mixed.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(JSON.stringify(mixed.body.error.details)).toContain('sections.0.key_points');
    const misspelt = await post('/api/blog/generate/medium/start', {
      title: 'T',
      sections: [{ id: 'a', heading: 'A', keypoints: ['lost'] }],
    });
    expect([misspelt.status, JSON.stringify(misspelt.body.error.details)]).toEqual([
      400,
      expect.stringContaining('sections.0.keypoints'),
    ]);

    // ---- medium: the outline's sections exactly as returned (snake_case), polled to completion ----
    const title = outlined.body.result.title_options[0] as string;
    const medium = await runTask('generate/medium', { title, sections: outline, tone: 'friendly' });
    const written = medium.body.result.sections as {
      id: string;
      heading: string;
      content: string;
      wordCount: number;
      sources: Src[];
    }[];
    expect(medium.body.result).toMatchObject({ success: true, title });
    expect(written.map((s) => [s.id, s.heading])).toEqual(outline.map((s) => [s.id, s.heading]));
    written.forEach((w, i) => {
      const asked = outline[i];
      // Word target: the section's target_words (400 in all, under the 1000-word cap: no scaling).
      expect(w.wordCount).toBe(markdownWordCount(w.content));
      expect([w.id, w.wordCount, fits(w.wordCount, asked.target_words)]).toEqual([w.id, w.wordCount, true]);
      // Key points: each appears in the section's text.
      for (const p of asked.key_points)
        expect([w.id, w.content.toLowerCase().includes(point(p))]).toEqual([w.id, true]);
      // References: the section cites only the outline's references for it (no other search).
      const allowed = new Set(asked.references.map((r) => r.url));
      for (const s of w.sources) expect(allowed.has(s.url)).toBe(true);
      if (asked.references.length) expect(w.sources.length).toBeGreaterThan(0);
    });
    expect(medium.body.result.total_words).toBe(written.reduce((n, s) => n + s.wordCount, 0));

    // ---- SEO analysis of the post, with the research as research_data ----
    const post_ = [`# ${title}`, ...written.map((s) => `## ${s.heading}\n\n${s.content}`)].join('\n\n');
    const seo = await post('/api/blog/seo/analyze', { content: post_, blog_title: title, research_data: research });
    expect(seo.status).toBe(200);
    expect(seo.body.seo_score).toEqual(expect.any(Number));
    // The research's primary keywords are what the analysis measured.
    expect(Object.keys(seo.body.density.primary_keywords).map((k) => k.toLowerCase())).toEqual(
      (research.keyword_analysis.primary_keywords as string[]).map((k) => k.toLowerCase()),
    );
    expect(seo.body.structure.heading_distribution).toMatchObject({ h1: 1, h2: written.length });
    for (const l of seo.body.link_suggestions) expect(researchUrls.has(l.suggested_url)).toBe(true);
  });
});
