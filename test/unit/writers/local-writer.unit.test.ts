/**
 * The offline social writer with the finishing rules: every kind's draft has
 * the shape a vendor is asked for, is deterministic and grounded (body
 * sentences are source sentences), and the finished piece holds every limit:
 * page-about never exceeds character_limit (property over random limits),
 * ad copy stays within its format's limits, scene durations sum to the
 * requested seconds.
 */
import Ajv from 'ajv';
import fc from 'fast-check';
import { writeSocial } from '../../../domain/generation/social';
import { AD_FORMAT_LIMITS, AD_FORMATS } from '../../../domain/writers/ad-formats';
import { buildJob } from '../../../domain/writers/briefs';
import type { WriterRequestBody } from '../../../domain/writers/requests';
import { writerRequest } from '../../../api/writers/schemas';
import { CarouselDraft, DRAFT_SCHEMAS } from '../../../domain/writers/drafts';
import { finishDraft } from '../../../domain/writers/finish';
import { formatLimits } from '../../../domain/writers/platforms';
import { emptyPreferences } from '../../../domain/writers/preferences';
import { charCount, emojiIn, hashtagsIn } from '../../../domain/writers/text-limits';
import { WRITER_KINDS, WriterKind, WriterPlatform } from '../../../domain/writers/types';
import type { Source } from '../../../domain/analysis/types';
import { createCorpusProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';

const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });
const ajv = new Ajv({ strict: false });

const BODIES: Record<string, WriterRequestBody> = {
  'profnet:post': { topic: 'B2B social media strategy', content_type: 'tips', audience: 'marketing leads' },
  'profnet:article': { topic: 'content repurposing', target_words: 300 },
  'profnet:video_post': { topic: 'video marketing', duration: '45_seconds', render: true },
  'profnet:carousel': { topic: 'email newsletters', slides: 6, content_slides: [{ focus: 'subject lines' }] },
  'socialnet:post': { topic: 'posting times on social media', engagement_hooks: { include_poll: true } },
  'socialnet:story': { topic: 'local SEO', duration: '20_seconds', interactive_elements: ['poll', 'quiz'] },
  'socialnet:reel': { topic: 'headlines', duration: '30_seconds', hook_strength: 'strong' },
  'socialnet:carousel': { topic: 'keyword research', slides: 4 },
  'socialnet:event': {
    event_details: { name: 'Content Calendar Workshop', date: '2027-03-05T18:00:00Z', type: 'workshop' },
    include_social_proof: true,
    follow_up_content: true,
  },
  'socialnet:group_post': { topic: 'buyer personas', value_proposition: 'A persona template you can copy' },
  'socialnet:page_about': { business_type: 'bakery', key_differentiators: ['sourdough baked daily', 'organic flour'] },
  'socialnet:ad_copy': { product_service: 'project management app', key_benefits: ['Plan sprints in minutes'] },
};

async function produce(platform: WriterPlatform, kind: WriterKind, body: WriterRequestBody) {
  const { brief } = buildJob(writerRequest(platform, kind, body), emptyPreferences());
  const sources: Source[] = brief.research
    ? (await corpus.search(brief.topic, { limit: 5 })).map((s, i) => ({ ...s, index: i + 1 }))
    : [];
  const draft = writeSocial({ brief, sources });
  return { brief, sources, draft, piece: finishDraft(brief, draft, sources) };
}

const cases = (Object.keys(WRITER_KINDS) as WriterPlatform[]).flatMap((p) =>
  WRITER_KINDS[p].map((k) => [p, k] as const),
);

describe.each(cases)('local %s %s', (platform, kind) => {
  it('writes the draft shape, deterministically, within the format limits', async () => {
    const body = BODIES[`${platform}:${kind}`];
    const a = await produce(platform, kind, body);
    expect(ajv.validate(DRAFT_SCHEMAS[kind], a.draft)).toBe(true);
    const b = await produce(platform, kind, body);
    expect(b.draft).toEqual(a.draft);
    expect(a.piece.text.length).toBeGreaterThan(20);
    const l = formatLimits(platform, kind);
    if (a.piece.engagement) {
      expect(charCount(a.piece.text)).toBeLessThanOrEqual(a.brief.maxCharacters + (kind === 'event' ? 10000 : 0));
      expect(hashtagsIn(a.piece.text).length).toBeLessThanOrEqual(
        kind === 'event' ? 3 * l.max_hashtags : l.max_hashtags,
      );
      expect(emojiIn(a.piece.text).length).toBeLessThanOrEqual(kind === 'event' ? 3 * l.max_emoji : l.max_emoji);
    }
  });
});

describe('grounding', () => {
  it('post body sentences are sentences of the research sources', async () => {
    const { draft, sources } = await produce('profnet', 'post', BODIES['profnet:post']);
    const body = (draft as { body: string }).body;
    const excerpts = sources.map((s) => (s.excerpt ?? '').replace(/\s+/g, ' ')).join(' ');
    const sentences = body.split('\n').map((l) => l.replace(/^\S+\s/, '').trim());
    expect(sentences.length).toBeGreaterThan(1);
    for (const s of sentences) expect(excerpts).toContain(s.slice(0, 40));
  });

  it('without research the post states nothing from sources and cites none', async () => {
    const { piece, sources } = await produce('profnet', 'post', { ...BODIES['profnet:post'], research_enabled: false });
    expect(sources).toEqual([]);
    expect(piece.text).toContain('B2B social media strategy');
  });
});

describe('limits on output', () => {
  it('page-about never exceeds character_limit (property over random limits)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 20, max: 2000 }),
        fc.array(fc.stringMatching(/^[a-z]{3,10}( [a-z]{2,10}){0,5}$/), { maxLength: 6 }),
        fc.constantFrom('formal', 'friendly', 'bold', ''),
        async (limit, differentiators, tone) => {
          const { piece } = await produce('socialnet', 'page_about', {
            business_type: 'independent bookshop and cafe',
            industry: 'retail',
            target_audience: 'readers in the city centre',
            tone,
            key_differentiators: differentiators,
            include_cta: true,
            character_limit: limit,
          });
          expect(charCount(piece.text)).toBeLessThanOrEqual(limit);
          expect(piece.content.character_count).toBe(charCount(piece.text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a vendor's too-long page-about is shortened at a sentence boundary", () => {
    const { brief } = buildJob(
      { platform: 'socialnet', kind: 'page_about', body: { business_type: 'bakery', character_limit: 60 } },
      emptyPreferences(),
    );
    const piece = finishDraft(
      brief,
      { text: 'We bake sourdough every morning. We deliver across the city for free. Order today.' },
      [],
    );
    expect(piece.text).toBe('We bake sourdough every morning.');
    expect(piece.limits.adjustments[0]).toMatchObject({ rule: 'max_characters', before: 82, after: 32 });
  });

  it.each(AD_FORMATS)(
    'ad copy for %s stays within each field limit (local and an oversized vendor draft)',
    async (format) => {
      const l = AD_FORMAT_LIMITS[format];
      const body = {
        product_service: 'cloud accounting software for freelancers',
        key_benefits: [
          'Send invoices from your phone in seconds',
          'Track every expense automatically',
          'File taxes with confidence',
        ],
        ad_format: format,
        campaign_objective: 'lead generation',
        target_audience: 'freelance designers',
      };
      const local = await produce('socialnet', 'ad_copy', body);
      const long =
        'This sentence is deliberately long so that it goes past every published limit of every format. '.repeat(3);
      const vendor = finishDraft(
        local.brief,
        {
          variants: Array.from({ length: 5 }, (_, i) => ({
            angle: `a${i}`,
            primary_text: long,
            headline: long,
            description: long,
            call_to_action: 'Sign Up',
          })),
        },
        [],
      );
      for (const piece of [local.piece, vendor]) {
        const variants = piece.content.variants as Array<Record<string, string>>;
        expect(variants.length).toBeLessThanOrEqual(l.variants);
        expect(variants.length).toBeGreaterThan(0);
        for (const v of variants) {
          expect(charCount(v.primary_text)).toBeLessThanOrEqual(l.primary_text);
          expect(charCount(v.headline)).toBeLessThanOrEqual(l.headline);
          if (l.description) expect(charCount(v.description ?? '')).toBeLessThanOrEqual(l.description);
          else expect(v.description).toBeUndefined();
          expect(v.primary_text.length).toBeGreaterThan(0);
        }
      }
      expect(vendor.limits.adjustments.some((a) => a.rule === 'variants')).toBe(true);
      expect(vendor.content.format_limits).toMatchObject({ primary_text: l.primary_text, checked_at: '2026-11-23' });
    },
  );
});

describe('timing and slides', () => {
  it('scene durations always sum to the requested seconds (local and vendor drafts)', async () => {
    for (const seconds of [3, 7, 15, 29, 60, 90]) {
      const { piece, brief } = await produce('socialnet', 'reel', {
        topic: 'headlines',
        duration: `${seconds}_seconds`,
      });
      const scenes = piece.content.scenes as Array<{ duration_seconds: number; start_seconds: number }>;
      expect(scenes.reduce((a, s) => a + s.duration_seconds, 0)).toBe(seconds);
      expect(scenes.every((s) => Number.isInteger(s.duration_seconds) && s.duration_seconds >= 1)).toBe(true);
      const vendor = finishDraft(
        brief,
        {
          scenes: [
            { duration_seconds: 2.5, narration: 'One.', visual: 'a' },
            { duration_seconds: 100, narration: 'Two.', visual: 'b' },
            { duration_seconds: 0, narration: 'Three.', visual: 'c' },
          ],
          caption: 'Caption',
        },
        [],
      );
      const vs = vendor.content.scenes as Array<{ duration_seconds: number; start_seconds: number }>;
      expect(vs.reduce((a, s) => a + s.duration_seconds, 0)).toBe(seconds);
      expect(vs.map((s) => s.start_seconds)).toEqual(
        vs.map((_, i) => vs.slice(0, i).reduce((a, s) => a + s.duration_seconds, 0)),
      );
    }
  });

  it('a script is kept word for word over the scenes', async () => {
    const script =
      'Start with one goal. Write it down. Measure it weekly. Share the result with your team. Adjust and repeat.';
    const { piece } = await produce('profnet', 'video_post', { topic: 'goals', duration: '60_seconds', script });
    expect(piece.content.script).toBe(script);
  });

  it('carousels have at most the requested slides: cover first, call to action last, no slide without material', async () => {
    const { piece } = await produce('profnet', 'carousel', BODIES['profnet:carousel']);
    const slides = piece.content.slides as Array<{ kind: string; title: string; body: string }>;
    // Six were asked for; the sources give two sentences about email newsletters besides the client's focus, so
    // the carousel is shorter rather than padded with "How subject lines fits into email newsletters.".
    expect(slides.length).toBeGreaterThanOrEqual(4);
    expect(slides.length).toBeLessThanOrEqual(6);
    expect(slides[0].kind).toBe('cover');
    expect(slides.at(-1)!.kind).toBe('cta');
    expect(slides[1].title).toBe('Subject Lines');
    for (const s of slides.slice(2, -1)) expect(s.body.length).toBeGreaterThan(0);
    expect(piece.rendering).toEqual([expect.objectContaining({ asset: 'slide_images', status: 'not_requested' })]);
  });

  it('a carousel shorter than asked says so: content slides written of those asked, and why (metadata.coverage)', async () => {
    // Off the sample corpus: no source sentence is about a bookshop's author evenings, and the client gave one focus.
    const body = {
      topic: 'Author evenings at Riverside Books',
      slides: 5,
      content_slides: [{ focus: 'Thursday readings' }],
    };
    const { draft: d, piece } = await produce('profnet', 'carousel', body);
    const draft = d as CarouselDraft;
    const slides = piece.content.slides as Array<{ kind: string; title: string }>;
    expect(slides.map((s) => s.kind)).toEqual(['cover', 'content', 'cta']);
    expect(draft.coverage).toMatchObject({ basis: 'brief', items: { wanted: 3, written: 1 } });
    expect(draft.coverage!.shortfall).toMatch(/^1 of 3 content slides: .*give each slide a focus \(content_slides\)/);
    // A carousel with every slide written has no shortfall.
    const full = await produce('profnet', 'carousel', { topic: 'email newsletters', slides: 3 });
    expect((full.piece.content.slides as unknown[]).length).toBe(3);
    expect((full.draft as CarouselDraft).coverage).toMatchObject({ items: { wanted: 1, written: 1 } });
    expect((full.draft as CarouselDraft).coverage!.shortfall).toBeUndefined();
    // The advice names the field this platform's route takes slide focuses in.
    const social = await produce('socialnet', 'carousel', { topic: body.topic, slides: 5 });
    expect((social.draft as CarouselDraft).coverage!.shortfall).toMatch(
      /give each slide a focus \(content_distribution\)/,
    );
  });

  it('a requested render is reported not available, next to the plan', async () => {
    const { piece } = await produce('profnet', 'video_post', BODIES['profnet:video_post']);
    expect(piece.rendering).toEqual([
      expect.objectContaining({ asset: 'video', requested: true, status: 'not_available', service: 'video_studio' }),
    ]);
  });
});
