/**
 * The pure analysis routes over HTTP: blog writer (/api/blog/..., bare
 * bodies) and the general family's SEO and fact-check routes (envelope).
 * Shapes, 400 with field paths (ajv and the analysis domain's own checks),
 * 401 without a key, 413 CONTENT_TOO_LONG over the content limit.
 */
import pino from 'pino';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';

const ARTICLE = `# Content Calendar Planning for Small Teams

A content calendar helps small teams publish on a steady schedule. In our 2023 survey, teams that planned a content calendar published 40% more posts than teams that did not. This guide shows you how to build one in an afternoon.

## Why a content calendar matters

Without a plan, publishing drifts. However, a simple content calendar turns good intentions into a routine. For example, a two-person team can plan a month of posts in one meeting. Readers learn when to expect new work, and search engines see steady updates.

![A weekly content calendar in a spreadsheet](https://cdn.example.com/calendar.png)

## How to build your first calendar

Start with the channels you already use. Then list the topics your audience asks about most often.

- Pick a cadence you can sustain for three months.
- Batch production on one day each week.
- Review results on the first Monday of each month.

Read the [editorial guide](/guides/editorial) and the [Content Marketing Institute research](https://contentmarketinginstitute.com/research) before you start.

## Measuring results

Track three numbers: posts published, visits per post and sign-ups. In addition, note which topics earn replies. Do you know which posts brought your last ten customers? If not, add a source field to your sign-up form.
`;

const SECTIONS = [
  {
    id: 'intro',
    heading: 'Why plan',
    content:
      'A content calendar helps small teams publish on a steady schedule. Do you plan your posts? Teams that plan publish 40% more.',
  },
  {
    id: 'build',
    heading: 'Building the calendar',
    content:
      'Next, build the content calendar around your channels. For example, list the topics your audience asks about. Then pick a weekly cadence you can keep.',
  },
  {
    id: 'measure',
    heading: 'Measuring results',
    content:
      'Finally, measure the calendar with three numbers: posts, visits and sign-ups. You will see which topics work within 3 months.',
  },
];

describe('analysis routes', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi({
      pipeline: false,
      logger: pino({ level: 'silent' }),
      deps: { publicBaseUrl: 'https://blog.example.com' },
    });
    key = (await api.user('enterprise')).key;
  });
  afterAll(async () => {
    await api?.stop();
  });
  const post = (p: string, json: unknown, k: string | null = key) =>
    call(`${api.url}${p}`, { method: 'POST', headers: k ? bearer(k) : {}, json });
  const expectInvalid = (r: Awaited<ReturnType<typeof post>>, parameter: string) => {
    expect([r.status, r.body.success, r.body.error.code, r.body.error.details.parameter]).toEqual([
      400,
      false,
      'INVALID_REQUEST',
      parameter,
    ]);
    expect(typeof r.body.timestamp).toBe('string');
  };

  it('refuses every analysis route without a key (401, general envelope)', async () => {
    for (const p of [
      '/api/blog/seo/analyze',
      '/api/blog/seo/metadata',
      '/api/blog/flow-analysis/basic',
      '/api/blog/flow-analysis/advanced',
      '/api/blog/hallucination/check',
      '/api/blog/outline/refine',
      '/api/blog/outline/rebalance',
      '/api/blog-writer/seo/analyze',
      '/api/seo-analyzer',
      '/api/seo-dashboard/optimize',
      '/api/profnet-writer/fact-check',
    ]) {
      const r = await post(p, { content: 'x' }, null);
      expect([p, r.status, r.body.error.code]).toEqual([p, 401, 'INVALID_API_KEY']);
    }
  });

  it('POST /api/blog/seo/analyze: bare body with score, density, structure and located findings', async () => {
    const r = await post('/api/blog/seo/analyze', {
      content: ARTICLE,
      blog_title: 'Content Calendar Planning for Small Teams',
      keywords: ['content calendar'],
      research_data: {
        sources: [
          {
            title: 'Editorial calendars and publishing cadence',
            url: 'https://example.org/cadence',
            excerpt: 'Teams with a weekly publishing cadence and an editorial calendar.',
          },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toBeUndefined();
    expect(r.body.seo_score).toBeGreaterThan(40);
    expect(r.body.density.primary_keywords['content calendar']).toBeGreaterThan(0.005);
    expect(r.body.structure.heading_distribution).toEqual({ h1: 1, h2: 3, h3: 0 });
    expect(r.body.structure.list_usage.has_lists).toBe(true);
    expect(r.body.image_alt_status).toEqual({ images_with_alt: 1, images_without_alt: 0, alt_text_quality: 'good' });
    expect(Object.keys(r.body.readability)).toEqual([
      'flesch_reading_ease',
      'flesch_kincaid_grade',
      'gunning_fog',
      'coleman_liau',
    ]);
    for (const f of r.body.findings) expect(f.end).toBeLessThanOrEqual(ARTICLE.length);
    expect(Array.isArray(r.body.recommendations)).toBe(true);
    expectInvalid(await post('/api/blog/seo/analyze', { content: ARTICLE, keywords: 'content calendar' }), 'keywords');
    expectInvalid(await post('/api/blog/seo/analyze', { keywords: [] }), 'content');
  });

  it('refuses content over the documented maximum with CONTENT_TOO_LONG', async () => {
    const r = await post('/api/blog/seo/analyze', { content: 'word '.repeat(20001) });
    expect([r.status, r.body.error.code, r.body.error.details.parameter, r.body.error.details.max_characters]).toEqual([
      413,
      'CONTENT_TOO_LONG',
      'content',
      100000,
    ]);
    const g = await post('/api/seo-analyzer', { content: 'a'.repeat(100001) });
    expect([g.status, g.body.error.code]).toEqual([413, 'CONTENT_TOO_LONG']);
  });

  it('POST /api/blog/seo/metadata: canonical URL on the public base URL, BlogPosting JSON-LD, description bounds', async () => {
    const r = await post('/api/blog/seo/metadata', {
      content: ARTICLE,
      title: 'Content Calendar Planning for Small Teams',
      keywords: ['content calendar'],
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.url_slug).toBe('content-calendar-planning-small-teams');
    expect(r.body.canonical_url).toBe('https://blog.example.com/content-calendar-planning-small-teams');
    expect(r.body.json_ld_schema).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      url: r.body.canonical_url,
    });
    expect(r.body.meta_description.length).toBeGreaterThanOrEqual(120);
    expect(r.body.meta_description.length).toBeLessThanOrEqual(156);
    expect(r.body.focus_keyword).toBe('content calendar');
    expect(Date.parse(r.body.generated_at)).not.toBeNaN();
    expectInvalid(await post('/api/blog/seo/metadata', { content: ARTICLE }), 'title');
  });

  it('POST /api/blog/flow-analysis/basic and /advanced: scores per section, processing_time_ms', async () => {
    const b = await post('/api/blog/flow-analysis/basic', {
      sections: SECTIONS,
      target_audience: 'small business owners',
      tone: 'friendly',
    });
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ success: true, analysis_type: 'basic' });
    expect(Object.keys(b.body.section_flow_scores)).toEqual(['intro', 'build', 'measure']);
    expect(Number.isInteger(b.body.processing_time_ms)).toBe(true);
    expect(Object.keys(b.body.flow_analysis)).toEqual(['transitions', 'coherence', 'engagement']);
    const a = await post('/api/blog/flow-analysis/advanced', { content: ARTICLE, detailed_analysis: true });
    expect(a.status).toBe(200);
    expect(a.body.analysis_type).toBe('advanced');
    expect(Object.keys(a.body.cross_section_analysis)).toEqual([
      'overall_coherence',
      'transition_quality',
      'thematic_consistency',
      'progression_logic',
    ]);
    const first = Object.values(a.body.detailed_section_analysis)[0] as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining([
        'flow_score',
        'readability_score',
        'engagement_score',
        'coherence_score',
        'transition_score',
        'issues',
        'strengths',
        'suggestions',
      ]),
    );
    expectInvalid(
      await post('/api/blog/flow-analysis/basic', { sections: [{ heading: 'x', content: 'y' }] }),
      'sections.0.id',
    );
    // the domain's own check (duplicate ids), mapped to 400 with its field
    expectInvalid(
      await post('/api/blog/flow-analysis/advanced', { sections: [SECTIONS[0], SECTIONS[0]] }),
      'sections.1.id',
    );
  });

  it('POST /api/blog/hallucination/check: contradicted, verified and unverified claims with totals', async () => {
    const sources = [
      {
        title: 'Publishing survey 2023',
        url: 'https://example.org/survey',
        excerpt:
          'In the 2023 survey, teams that planned a content calendar published 25% more posts than teams that did not.',
      },
    ];
    const r = await post('/api/blog/hallucination/check', {
      content: ARTICLE,
      sources,
      check_options: { confidence_threshold: 0.6 },
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const h = r.body.hallucination_analysis;
    expect(h.total_claims).toBe(r.body.claim_analysis.length);
    expect(h.verified_claims + h.unverified_claims + h.potential_hallucinations).toBe(h.total_claims);
    const forty = r.body.claim_analysis.find((c: { claim: string }) => c.claim.includes('40%'));
    expect(forty.verification_status).toBe('contradicted');
    expect(forty.supporting_sources[0].url).toBe('https://example.org/survey');
    expect(Number.isInteger(r.body.processing_time_ms)).toBe(true);
    expectInvalid(
      await post('/api/blog/hallucination/check', { content: ARTICLE, check_options: { confidence_threshold: 2 } }),
      'check_options.confidence_threshold',
    );
    expectInvalid(
      await post('/api/blog/hallucination/check', {
        content: ARTICLE,
        sources: [{ title: 't', url: 'https://x.org' }],
      }),
      'sources.0.excerpt',
    );
  });

  it('POST /api/blog/outline/refine and /rebalance', async () => {
    const outline = [
      { id: 'intro', heading: 'Introduction', key_points: ['Why plan'], target_words: 200 },
      { id: 'build', heading: 'Build it', key_points: ['Channels', 'Cadence'], target_words: 600 },
      { id: 'measure', heading: 'Measure', key_points: ['Three numbers'], target_words: 200 },
    ];
    const r = await post('/api/blog/outline/refine', {
      outline,
      operation: 'rename',
      section_id: 'build',
      payload: { heading: 'Build your calendar' },
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.outline[1].heading).toBe('Build your calendar');
    expect(Object.keys(r.body.optimization_results)).toEqual([
      'overall_quality_score',
      'improvements_made',
      'optimization_focus',
    ]);
    expectInvalid(
      await post('/api/blog/outline/refine', { outline, operation: 'remove', section_id: 'nope' }),
      'section_id',
    );
    expectInvalid(await post('/api/blog/outline/refine', { outline, operation: 'explode' }), 'operation');
    expectInvalid(
      await post('/api/blog/outline/refine', { outline, operation: 'reorder', payload: { order: ['intro'] } }),
      'payload.order',
    );

    const d = await post('/api/blog/outline/rebalance', { outline });
    expect(d.status).toBe(200);
    expect(d.body.rebalancing_summary).toMatchObject({
      total_target_words: 1500,
      original_total: 1000,
      rebalanced_total: 1500,
    });
    expect(d.body.outline.map((s: { target_words: number }) => s.target_words)).toEqual([300, 900, 300]);
    expect(d.body.outline.map((s: { word_adjustment: number }) => s.word_adjustment)).toEqual([100, 300, 100]);
    const q = await post('/api/blog/outline/rebalance?target_words=901', { outline });
    expect(q.body.outline.reduce((a: number, s: { target_words: number }) => a + s.target_words, 0)).toBe(901);
    const bad = await post('/api/blog/outline/rebalance?target_words=-5', { outline });
    expectInvalid(bad, 'target_words');
    expect(bad.body.error.details.location).toBe('query');
  });

  it('general family: /api/blog-writer/seo/analyze and the integration route /api/seo-analyzer in the envelope', async () => {
    const r = await post('/api/blog-writer/seo/analyze', {
      content: ARTICLE,
      target_keywords: ['content calendar'],
      competitor_urls: ['https://contentmarketinginstitute.com/blog', 'https://rival.example.net/post'],
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'success', 'timestamp']);
    expect(r.body.data.density.primary_keywords['content calendar']).toBeGreaterThan(0);
    expect(r.body.data.competitors.map((c: { linked: boolean }) => c.linked)).toEqual([true, false]);
    expectInvalid(
      await post('/api/blog-writer/seo/analyze', { content: ARTICLE, competitor_urls: ['not a url'] }),
      'competitor_urls.0',
    );
    const i = await post('/api/seo-analyzer', { content: ARTICLE, target_keywords: ['content calendar'] });
    expect([i.status, i.body.success, typeof i.body.data.seo_score]).toEqual([200, true, 'number']);
    expect(i.headers.get('ratelimit-policy')).toContain('q=20');
    // Each analysis is recorded (for the seo.analysis.completed webhooks), with the score, not the content.
    const [ev] = await api.store.readStream(`seo-analysis-${i.body.data.analysis_id}`);
    expect(ev).toMatchObject({
      type: 'SeoAnalysisCompleted',
      data: { route: '/api/seo-analyzer', seo_score: i.body.data.seo_score, keywords: ['content calendar'] },
    });
    expect(ev.data).not.toHaveProperty('content');
    expect(r.body.data.analysis_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('POST /api/seo-dashboard/optimize: located recommendations per goal', async () => {
    const thin =
      '# Notes\n\nThe posts were written by the team. The calendar was reviewed by the manager. The plan was approved by everyone. It was very long.';
    const r = await post('/api/seo-dashboard/optimize', {
      content: thin,
      target_keyword: 'content calendar',
      optimization_goals: ['keyword_optimization', 'readability', 'structure'],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.goals.map((g: { goal: string }) => g.goal)).toEqual([
      'keyword_optimization',
      'readability',
      'structure',
    ]);
    const kw = r.body.data.goals[0];
    expect(kw.recommendations.length).toBeGreaterThan(0);
    const passive = r.body.data.goals[1].recommendations.find(
      (x: { assessment: string }) => x.assessment === 'passive_voice',
    );
    expect(passive.recommendation).toBeTruthy();
    expect(thin.slice(passive.start, passive.end).length).toBeGreaterThan(0);
    const all = await post('/api/seo-dashboard/optimize', { content: ARTICLE, target_keyword: 'content calendar' });
    expect(all.body.data.goals.map((g: { goal: string }) => g.goal)).toEqual([
      'keyword_optimization',
      'readability',
      'structure',
      'links',
      'images',
      'engagement',
    ]);
    // The spec's goal keyword_density: the density assessment alone.
    const density = await post('/api/seo-dashboard/optimize', {
      content: thin,
      target_keyword: 'content calendar',
      optimization_goals: ['keyword_density', 'readability', 'structure'],
    });
    expect(density.status).toBe(200);
    expect(density.body.data.goals[0].goal).toBe('keyword_density');
    expect(density.body.data.goals[0].assessments.map((a: { id: string }) => a.id)).toEqual(['keyword_density']);
    expectInvalid(
      await post('/api/seo-dashboard/optimize', { content: thin, optimization_goals: ['virality'] }),
      'optimization_goals.0',
    );
  });

  it('POST /api/profnet-writer/fact-check: claims checked against sources retrieved from the research corpus', async () => {
    const r = await post('/api/profnet-writer/fact-check', { content: ARTICLE, verification_level: 'thorough' });
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.source_mode).toBe('research_corpus');
    expect(d.verification_level).toBe('thorough');
    expect(d.hallucination_analysis.total_claims).toBeGreaterThan(0);
    expect(d.sources_checked.length).toBeGreaterThan(0);
    for (const s of d.sources_checked) expect(s.url).toMatch(/^https:\/\/blog\.example\.com\/api\/research\/corpus\//);
    for (const c of d.claim_analysis)
      expect(['verified', 'unverified', 'contradicted']).toContain(c.verification_status);
    // The spec's level: every claim, five corpus passages per claim.
    const full = await post('/api/profnet-writer/fact-check', {
      content: ARTICLE,
      verification_level: 'comprehensive',
    });
    expect(full.status).toBe(200);
    expect(full.body.data.verification_level).toBe('comprehensive');
    expect(full.body.data.sources_checked.length).toBeGreaterThanOrEqual(d.sources_checked.length);
    const basic = await post('/api/profnet-writer/fact-check', { content: ARTICLE });
    expect(basic.body.data.verification_level).toBe('standard');
    expectInvalid(
      await post('/api/profnet-writer/fact-check', { content: ARTICLE, verification_level: 'paranoid' }),
      'verification_level',
    );
  });
});
