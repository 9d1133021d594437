/**
 * The blog routes that spend vendor budget, over HTTP: each executes its
 * workflow on the real Temporal server (local provider) and answers with
 * the result; generate/optimize record continuity metrics as events and the
 * continuity read right after sees them (read-your-writes); sections are
 * scoped by user.
 */
import pino from 'pino';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { testTemporal, uniq } from '../../support/env';
import { startBlogSyncWorker } from '../../support/blog-sync-worker';
import { sectionContinuityProjection } from '../../../projections/section-continuity';

jest.setTimeout(120000);

const SECTION = {
  id: 'cadence',
  heading: 'Choosing a publishing cadence',
  subheadings: [],
  key_points: [
    'Match the cadence to your capacity',
    'Weekly posts beat sporadic bursts',
    'Review the cadence every quarter',
  ],
  keywords: ['content calendar', 'publishing cadence'],
  target_words: 220,
};

const DRAFT = `Choosing a cadence is the first decision in any content calendar, and it is really the one that most small teams get wrong because they plan for the weeks when they have time rather than the weeks when they do not.

A weekly rhythm is very easy to remember. Readers learn when to expect new posts [1]. Teams that publish every week report steadier traffic than teams that publish in bursts.

- Match the cadence to your capacity.
- Review it every quarter.`;

describe('blog section routes (workflows, local provider)', () => {
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startBlogSyncWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    temporal = await testTemporal();
    const taskQueue = uniq('blog-sync');
    api = await startTestApi({
      logger: pino({ level: 'silent' }),
      projections: [sectionContinuityProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue } },
    });
    worker = await startBlogSyncWorker(api.schema.db, { limits: { tokens: 10_000_000 }, taskQueue });
    alice = (await api.user('pro')).key;
    bob = (await api.user('pro')).key;
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
  });

  const post = (p: string, json: unknown, k: string | null = alice) =>
    call(`${api.url}${p}`, { method: 'POST', headers: k ? bearer(k) : {}, json });
  const get = (p: string, k: string | null = alice) => call(`${api.url}${p}`, { headers: k ? bearer(k) : {} });

  it('POST /api/blog/outline/enhance-section: the section plus enhancement_focus and improvements_made', async () => {
    const r = await post('/api/blog/outline/enhance-section', SECTION);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'cadence', enhancement_focus: 'general improvement' });
    expect(r.body.improvements_made.length).toBeGreaterThan(0);
    expect(r.body.key_points.length).toBeGreaterThanOrEqual(3);
    const f = await post('/api/blog/outline/enhance-section?focus=practical%20examples', SECTION);
    expect(f.body.enhancement_focus).toBe('practical examples');
    expect(f.body.key_points.some((p: string) => /example/i.test(p))).toBe(true);
    const bad = await post('/api/blog/outline/enhance-section', { heading: 'No id' });
    expect([bad.status, bad.body.error.code, bad.body.error.details.parameter]).toEqual([400, 'INVALID_REQUEST', 'id']);
  });

  it('POST /api/blog/outline/optimize: ids kept, summary with quality score', async () => {
    const outline = [
      { id: 'a', heading: 'Introduction', target_words: 100 },
      { id: 'b', heading: 'Introduction', target_words: 1200, subheadings: ['Channels', 'Cadence'] },
      { id: 'c', heading: 'Measuring a content calendar', target_words: 200, keywords: ['content calendar'] },
    ];
    const r = await post('/api/blog/outline/optimize', { outline });
    expect(r.status).toBe(200);
    expect(r.body.outline.map((s: { id: string }) => s.id)).toEqual(['a', 'b', 'c']);
    expect(r.body.outline.reduce((n: number, s: { target_words: number }) => n + s.target_words, 0)).toBe(1500);
    expect(r.body.optimization_summary.focus_area).toBe('general optimization');
    expect(r.body.optimization_summary.improvements_made.length).toBeGreaterThan(0);
    expect(typeof r.body.optimization_summary.overall_quality_score).toBe('number');
    const bad = await post('/api/blog/outline/optimize', {
      outline: [
        { id: 'a', heading: 'x' },
        { id: 'a', heading: 'y' },
      ],
    });
    expect([bad.status, bad.body.error.details.parameter]).toEqual([400, 'outline.1.id']);
  });

  it('POST /api/blog/section/generate then GET continuity: same metrics at once; other users get 404', async () => {
    const r = await post('/api/blog/section/generate', {
      section: SECTION,
      keywords: ['content calendar'],
      tone: 'friendly',
      persona: { audience: 'small business owners' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, section_id: 'cadence', mode: 'draft' });
    // The key points as written, and only what the sources say about them: at most the target (+10 %), no filler.
    for (const p of SECTION.key_points) expect(r.body.markdown).toContain(p);
    const m = r.body.continuity_metrics;
    expect(Object.keys(m).sort()).toEqual([
      'citation_coverage',
      'coherence_score',
      'engagement_score',
      'flow_score',
      'keyword_density',
      'readability_score',
      'word_count',
    ]);
    expect(m.word_count).toBeGreaterThan(15);
    expect(m.word_count).toBeLessThanOrEqual(242);
    if (m.word_count < 198) expect(r.body.metadata.coverage.shortfall).toMatch(/adds nothing to reach a length/);
    expect(m.keyword_density).toBeGreaterThan(0);
    for (const c of r.body.citations) expect(r.body.markdown).toContain(`[${c.index}]`);
    expect(r.body.continuity_event).toBeUndefined();

    const c = await get('/api/blog/section/cadence/continuity');
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ section_id: 'cadence', continuity_metrics: m, origin: 'generate', versions: 1 });
    const other = await get('/api/blog/section/cadence/continuity', bob);
    expect([other.status, other.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await get('/api/blog/section/never-made/continuity')).status).toBe(404);
    expect((await get('/api/blog/section/cadence/continuity', null)).status).toBe(401);

    const polished = await post('/api/blog/section/generate', {
      section: { ...SECTION, id: 'cadence-2' },
      mode: 'polished',
    });
    expect([polished.status, polished.body.mode]).toEqual([200, 'polished']);
    const bad = await post('/api/blog/section/generate', { section: SECTION, mode: 'final' });
    expect([bad.status, bad.body.error.details.parameter]).toEqual([400, 'mode']);
    const big = await post('/api/blog/section/generate', { section: { ...SECTION, target_words: 5000 } });
    expect([big.status, big.body.error.details.parameter]).toEqual([400, 'section.target_words']);
  });

  it('POST /api/blog/section/optimize: revised text, measured improvements, continuity updated', async () => {
    const r = await post('/api/blog/section/optimize', {
      section_id: 'cadence',
      content: DRAFT,
      optimization_focus: 'readability',
      target_audience: 'small business owners',
      tone: 'friendly',
    });
    expect(r.status).toBe(200);
    expect(r.body.section_id).toBe('cadence');
    expect(r.body.original_content).toBe(DRAFT);
    expect(r.body.optimized_content).not.toBe(DRAFT);
    expect(r.body.optimized_content).toContain('[1]');
    expect(r.body.optimized_content).not.toMatch(/really|very easy/);
    const s = r.body.optimization_summary;
    expect(s.focus_area).toBe('readability');
    expect(Object.keys(s.quality_improvements)).toEqual(['engagement_score', 'readability_score', 'clarity_score']);
    expect(s.quality_improvements.readability_score).toBe(
      s.scores_after.readability_score - s.scores_before.readability_score,
    );
    expect(s.quality_improvements.readability_score).toBeGreaterThan(0);
    const c = await get('/api/blog/section/cadence/continuity');
    expect(c.body).toMatchObject({
      origin: 'optimize',
      versions: 2,
      heading: SECTION.heading,
      continuity_metrics: r.body.continuity_metrics,
    });
    const bad = await post('/api/blog/section/optimize', { content: DRAFT });
    expect([bad.status, bad.body.error.details.parameter]).toEqual([400, 'section_id']);
  });
});
