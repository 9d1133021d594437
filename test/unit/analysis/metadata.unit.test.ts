import { generateMetadata } from '../../../domain/analysis/metadata';
import { slugify } from '../../../domain/analysis/slug';
import { textWidthPx, truncateToWidth } from '../../../domain/analysis/pixel-width';
import { AnalysisInputError } from '../../../domain/analysis/errors';

describe('slugify', () => {
  it.each([
    ['The Complete Guide to Content Marketing', 'complete-guide-content-marketing'],
    ['Crème Brûlée & Straße: Ærø’s Cafés', 'creme-brulee-strasse-aeros-cafes'],
    ["Don't   Panic!!! -- 42 Tips", 'dont-panic-42-tips'],
    ['a the of', 'a-the-of'], // only stop words: keep them rather than return nothing
    ['', ''],
  ])('%s -> %s', (input, slug) => expect(slugify(input)).toBe(slug));

  it('is at most 60 characters, cut at a word boundary, without a trailing hyphen', () => {
    const s = slugify(
      'Extraordinarily comprehensive introduction covering everything about sustainable agriculture practices worldwide',
    );
    expect(s.length).toBeLessThanOrEqual(60);
    expect(s).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect('extraordinarily-comprehensive-introduction-covering-everything-about'.startsWith(s)).toBe(true);
  });
});

describe('title width', () => {
  it('sums Arial advance widths at 20px', () => {
    // i=222, W=944 units per 1000 em -> 4.44 px and 18.88 px at 20 px
    expect(textWidthPx('i')).toBeCloseTo(4.44, 6);
    expect(textWidthPx('W')).toBeCloseTo(18.88, 6);
    expect(textWidthPx('iW')).toBeCloseTo(23.32, 6);
  });
  it('truncates at a word boundary to fit 600px', () => {
    const long = 'Wonderful Weekend Walks With Wise Wanderers Who Wander Widely Without Worry Whatsoever';
    const t = truncateToWidth(long);
    expect(textWidthPx(t)).toBeLessThanOrEqual(600);
    expect(long.startsWith(t)).toBe(true);
    expect(long[t.length]).toBe(' ');
  });
});

describe('generateMetadata', () => {
  const content = [
    '# Ignored heading',
    '',
    'Content marketing helps small businesses grow by teaching customers. However, many teams struggle to publish consistently.',
    '',
    '![Editorial calendar for content marketing](/img/calendar.png)',
    '',
    '## Planning',
    '',
    'Plan topics around customer questions and search demand.',
    '',
    '## Writing',
    '',
    'Write clear posts with one idea each and concrete examples.',
    '',
    '## Measuring',
    '',
    'Measure traffic, leads and conversions every month.',
  ].join('\n');
  const now = '2024-05-01T10:00:00Z';
  const m = generateMetadata(
    {
      content,
      title: 'The Complete Guide to Content Marketing for Small Businesses',
      keywords: ['content marketing'],
      research_data: { keyword_analysis: { secondary_keywords: ['editorial calendar'] } },
    },
    { base_url: 'https://example.com/blog/', now, author: 'Ana Writer' },
  );

  it('returns every field of the spec shape', () => {
    expect(Object.keys(m).sort()).toEqual([
      'blog_categories',
      'blog_tags',
      'canonical_url',
      'focus_keyword',
      'generated_at',
      'json_ld_schema',
      'meta_description',
      'meta_descriptions',
      'open_graph',
      'optimization_score',
      'reading_time',
      'seo_title',
      'social_hashtags',
      'title_options',
      'twitter_card',
      'url_slug',
    ]);
    expect(Object.keys(m.open_graph).sort()).toEqual(['description', 'image', 'title', 'type', 'url']);
    expect(Object.keys(m.twitter_card).sort()).toEqual(['card', 'description', 'image', 'title']);
  });

  it('builds slug, canonical URL, focus keyword and timestamps from the inputs', () => {
    expect(m.url_slug).toBe('complete-guide-content-marketing-small-businesses');
    expect(m.canonical_url).toBe('https://example.com/blog/complete-guide-content-marketing-small-businesses');
    expect(m.focus_keyword).toBe('content marketing');
    expect(m.generated_at).toBe('2024-05-01T10:00:00.000Z');
    expect(m.open_graph.image).toBe('https://example.com/img/calendar.png');
    expect(m.twitter_card.card).toBe('summary_large_image');
    expect(m.reading_time).toBe(1);
  });

  it('meta descriptions are 120-156 characters and contain the focus keyword', () => {
    expect(m.meta_descriptions.length).toBeGreaterThan(0);
    for (const d of m.meta_descriptions) {
      expect(d.length).toBeGreaterThanOrEqual(120);
      expect(d.length).toBeLessThanOrEqual(156);
      expect(d.toLowerCase()).toContain('content marketing');
    }
    expect(m.meta_description).toBe(m.meta_descriptions[0]);
  });

  it('title options and seo_title fit 600px; seo_title has the keyword', () => {
    for (const t of [...m.title_options, m.seo_title]) expect(textWidthPx(t)).toBeLessThanOrEqual(600);
    expect(m.seo_title.toLowerCase()).toContain('content marketing');
  });

  it('json_ld_schema is a valid schema.org BlogPosting', () => {
    const j = m.json_ld_schema as unknown as Record<string, unknown>;
    expect(j['@context']).toBe('https://schema.org');
    expect(j['@type']).toBe('BlogPosting');
    expect(typeof j.headline).toBe('string');
    expect((j.headline as string).length).toBeGreaterThan(0);
    expect((j.headline as string).length).toBeLessThanOrEqual(110);
    expect(Number.isNaN(Date.parse(j.datePublished as string))).toBe(false);
    expect(j.author).toEqual({ '@type': 'Person', name: 'Ana Writer' });
    expect(j.image).toEqual(['https://example.com/img/calendar.png']);
    expect(j.mainEntityOfPage).toEqual({ '@type': 'WebPage', '@id': m.canonical_url });
    expect(typeof j.keywords).toBe('string');
    expect(j.wordCount).toBe(41);
  });

  it('tags, hashtags and categories are derived from the text', () => {
    expect(m.blog_tags[0]).toBe('content marketing');
    expect(m.blog_tags).toContain('editorial calendar');
    expect(m.social_hashtags[0]).toBe('#ContentMarketing');
    expect(m.blog_categories).toContain('Marketing');
    expect(m.optimization_score).toBeGreaterThanOrEqual(0);
    expect(m.optimization_score).toBeLessThanOrEqual(100);
  });

  it('rejects a missing base URL and a bad clock value', () => {
    expect(() => generateMetadata({ content, title: 't' }, { base_url: 'example.com', now })).toThrow(
      AnalysisInputError,
    );
    expect(() => generateMetadata({ content, title: 't' }, { base_url: 'https://x.com', now: 'not a date' })).toThrow(
      AnalysisInputError,
    );
  });
});
