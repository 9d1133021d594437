/**
 * The offline writer's new kinds (social posts, strategy, personas, keyword
 * insights): grounded in the sources they are given, within platform limits,
 * deterministic, and honest when the sources say nothing.
 */
import {
  contentStrategy,
  developPersonas,
  pascalHashtag,
  intentOf,
  keywordInsights,
  writePlatformPost,
} from '../../../domain/generation';
import type { Source } from '../../../domain/generation';
import { PLATFORMS } from '../../../domain/content/platforms';
import { createCorpusProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';

const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });
const sourcesFor = async (q: string, limit = 6): Promise<Source[]> =>
  (await corpus.search(q, { limit })).map((s, i) => ({ ...s, index: i + 1 }));

describe('writePlatformPost', () => {
  const base = { topic: 'Content repurposing', include_hashtags: true, include_cta: true, tone: 'friendly' };

  it('fits every platform limit and quotes only source sentences, attributed', async () => {
    const sources = await sourcesFor('content repurposing');
    for (const [platform, limits] of Object.entries(PLATFORMS)) {
      const p = writePlatformPost({ ...base, platform, ...limits, sources });
      expect([...p.content].length).toBeLessThanOrEqual(limits.max_characters);
      expect(p.character_count).toBe([...p.content].length);
      expect(p.hashtags.length).toBeLessThanOrEqual(limits.max_hashtags);
      for (const s of p.sources) expect(sources.map((x) => x.url)).toContain(s.url);
    }
    const long = writePlatformPost({ ...base, platform: 'profnet', ...PLATFORMS.profnet, sources });
    expect(long.sources.length).toBeGreaterThan(0);
    // Each quoted source is named after its sentence.
    for (const s of long.sources) expect(long.content).toContain(`(${sources.find((x) => x.url === s.url)!.title})`);
  });

  it('keeps the CTA and hashtags when it must drop evidence for a short platform', async () => {
    const sources = await sourcesFor('content repurposing');
    const p = writePlatformPost({ ...base, platform: 'microblog', ...PLATFORMS.microblog, sources });
    expect(p.call_to_action).not.toBeNull();
    expect(p.content).toContain(p.call_to_action!);
    expect(p.hashtags.length).toBeGreaterThan(0);
  });

  it('without sources states no fact, and is the same for the same input', () => {
    const input = { ...base, platform: 'profnet', ...PLATFORMS.profnet, sources: [], key_points: ['Plan repurposing'] };
    const a = writePlatformPost(input);
    expect(a.sources).toEqual([]);
    expect(a.content).not.toMatch(/\d/);
    expect(writePlatformPost(input)).toEqual(a);
  });

  it('makes hashtags in PascalCase, keeping acronyms', () => {
    expect(pascalHashtag('local seo')).toBe('#LocalSeo');
    expect(pascalHashtag('B2B SaaS marketing')).toBe('#B2BSaaSMarketing');
    expect(pascalHashtag('#already')).toBe('#Already');
    expect(pascalHashtag('  ')).toBeUndefined();
  });
});

describe('contentStrategy', () => {
  it('answers every goal and content type, each piece of advice citing a listed reference', async () => {
    const sources = await sourcesFor('lead generation email newsletter social content strategy', 10);
    const s = contentStrategy({
      business_type: 'B2B SaaS',
      goals: ['lead_generation', 'brand_awareness'],
      content_types: ['blog', 'email'],
      sources,
    });
    expect(s.goals.map((g) => g.goal)).toEqual(['lead_generation', 'brand_awareness']);
    expect(s.content_types.map((t) => t.content_type)).toEqual(['blog', 'email']);
    const refs = new Set(s.references.map((r) => r.index));
    const advice = [
      ...s.goals.flatMap((g) => [...g.approach, ...g.kpis]),
      ...s.content_types.flatMap((t) => t.recommendations),
    ];
    expect(advice.length).toBeGreaterThan(3);
    for (const a of advice) {
      expect(refs.has(a.source)).toBe(true);
      expect(a.text).toContain(`[${a.source}]`);
    }
    // A sentence is quoted once.
    expect(new Set(advice.map((a) => a.text)).size).toBe(advice.length);
  });

  it('says so when the sources cover nothing, instead of filler', () => {
    const s = contentStrategy({ business_type: 'Bakery', goals: ['sales'], content_types: ['video'], sources: [] });
    expect(s.goals[0]).toMatchObject({ approach: [], kpis: [], note: expect.stringContaining('nothing') });
    expect(s.content_types[0]).toMatchObject({ recommendations: [], note: expect.stringContaining('nothing') });
    expect(s.content_pillars).toEqual([]);
  });
});

describe('developPersonas', () => {
  it('builds one persona from exactly the demographics given', async () => {
    const sources = await sourcesFor('buyer personas marketing managers');
    const p = developPersonas({
      business_niche: 'B2B SaaS',
      age_range: '25-34',
      profession: 'Marketing Manager',
      pain_points: ['proving ROI'],
      sources,
    });
    expect(p.personas).toHaveLength(1);
    expect(p.personas[0].label).toBe('Marketing managers, 25-34, in B2B SaaS');
    expect(p.personas[0].pain_points[0].content_ideas).toHaveLength(3);
    expect(p.personas[0].pain_points[0].content_ideas.join(' ')).toContain('ROI');
  });
});

describe('keyword insights', () => {
  it('labels intent by modifier, and says when it is a default', () => {
    expect(intentOf('buy running shoes')).toEqual({ intent: 'transactional', intent_signal: 'modifier "buy"' });
    expect(intentOf('best crm vs hubspot').intent).toBe('commercial');
    expect(intentOf('how to write a newsletter').intent).toBe('informational');
    expect(intentOf('mailchimp login').intent).toBe('navigational');
    expect(intentOf('content calendar')).toEqual({ intent: 'informational', intent_signal: 'no modifier (default)' });
  });

  it('clusters keywords by their most shared word', () => {
    const r = keywordInsights({
      keywords: ['email newsletter', 'newsletter ideas', 'newsletter template', 'local seo', 'local seo checklist'],
    });
    expect(r.clusters).toEqual([
      { name: 'email newsletter', keywords: ['email newsletter', 'newsletter ideas', 'newsletter template'] },
      { name: 'local seo', keywords: ['local seo', 'local seo checklist'] },
    ]);
  });
});
