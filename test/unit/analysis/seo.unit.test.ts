import { analyzeSeo } from '../../../domain/analysis/seo';
import { SEO_WEIGHTS } from '../../../domain/analysis/seo-score';
import { resolveKeywords } from '../../../domain/analysis/seo-keywords';
import { isPassive } from '../../../domain/analysis/passive';
import { tokenize } from '../../../domain/analysis/words';

/** n copies of a sentence, to build texts of known length. */
const rep = (sentence: string, n: number): string => Array(n).fill(sentence).join(' ');

describe('keyword density', () => {
  // 10 sentences x 10 words = 100 words; "seo tools" appears in 2 sentences, once as a plural form
  const body = [
    'Seo tools help small teams publish better posts every week.',
    'Writers compare seo tool prices before they choose a plan.',
    ...Array(8).fill('Writers plan posts around clear goals and honest helpful answers.'),
  ].join(' ');

  it('counts phrase occurrences including plural forms, as a ratio of all words', () => {
    const r = analyzeSeo({ content: body, keywords: ['seo tools'] });
    expect(r.readability_details.counts.words).toBe(100);
    expect(r.density.primary_keywords['seo tools']).toBeCloseTo(2 / 100, 6);
  });

  it('matches -ing and -ed forms', () => {
    const r = analyzeSeo({
      content: 'We plan content. Planning content matters. We planned content well.',
      keywords: ['plan content'],
    });
    expect(r.density.primary_keywords['plan content']).toBeCloseTo(3 / 10, 6);
  });

  it('flags stuffing above 3% and names the span', () => {
    const text = rep('Seo tools are seo tools.', 4);
    const r = analyzeSeo({ content: text, keywords: ['seo tools'] });
    const f = r.findings.find((x) => x.assessment === 'keyword_density')!;
    expect(f.message).toMatch(/above the 3% maximum/);
    expect(text.slice(f.start, f.end).startsWith('Seo tools')).toBe(true);
    expect(text.slice(f.start, f.end).endsWith('seo tools')).toBe(true);
  });

  it('uses research keywords when the request has none', () => {
    expect(
      resolveKeywords([], { keyword_analysis: { primary_keywords: ['a', 'b'], secondary_keywords: ['c'] } }),
    ).toEqual({ primary: ['a', 'b'], secondary: ['c'] });
    expect(
      resolveKeywords(['x'], { keyword_analysis: { primary_keywords: ['a'], secondary_keywords: ['c'] } }),
    ).toEqual({ primary: ['x'], secondary: ['a', 'c'] });
  });
});

describe('structure', () => {
  const md = [
    '# First title',
    '',
    'Intro paragraph about baking bread.',
    '',
    '## Ingredients',
    '',
    '- Flour',
    '- Water',
    '- Salt',
    '',
    '#### Too deep',
    '',
    'Text under a skipped level.',
    '',
    '# Second title',
    '',
    'More text.',
    '',
    '1. Mix',
    '2. Bake',
  ].join('\n');
  const r = analyzeSeo({ content: md, keywords: ['bread'] });

  it('counts headings, lists and reports skipped levels and extra h1', () => {
    expect(r.structure.heading_distribution).toEqual({ h1: 2, h2: 1, h3: 0 });
    expect(r.structure.heading_hierarchy.multiple_h1).toBe(true);
    expect(r.structure.heading_hierarchy.skipped_levels.map((s) => [s.from, s.to, s.heading])).toEqual([
      [2, 4, 'Too deep'],
    ]);
    expect(r.structure.heading_hierarchy.is_valid).toBe(false);
    expect(r.structure.list_usage).toEqual({ lists: 2, list_items: 5, has_lists: true });
  });

  it('every finding points at the right text', () => {
    const skip = r.findings.find((f) => f.message.includes('jumps from H2 to H4'))!;
    expect(md.slice(skip.start, skip.end)).toBe('#### Too deep');
    const h1 = r.findings.find((f) => f.message.includes('additional H1'))!;
    expect(md.slice(h1.start, h1.end)).toBe('# Second title');
    for (const f of r.findings) {
      expect(f.start).toBeGreaterThanOrEqual(0);
      expect(f.end).toBeLessThanOrEqual(md.length);
      expect(f.recommendation.length).toBeGreaterThan(10);
    }
  });

  it('measures paragraph length and words between subheadings', () => {
    const long = `## A\n\n${rep('This paragraph keeps going on with ten plain words here.', 16)}\n\n## B\n\nShort.`;
    const x = analyzeSeo({ content: long });
    expect(x.structure.paragraph_length).toEqual({ paragraphs: 2, average_words: 80.5, max_words: 160, over_limit: 1 });
    expect(x.findings.some((f) => f.assessment === 'paragraph_length')).toBe(true);
    const many = `## A\n\n${rep('Ten words sit in this sentence for the subheading test.', 16)}\n\n${rep('Ten words sit in this sentence for the subheading test.', 16)}`;
    const y = analyzeSeo({ content: many });
    const f = y.findings.find((z) => z.assessment === 'subheading_distribution')!;
    expect(f.message).toMatch(/^320 words/);
  });
});

describe('style checks', () => {
  it('detects passive voice including irregular participles', () => {
    const p = (s: string): boolean => isPassive(tokenize(s));
    expect(p('The report was written by Ana.')).toBe(true);
    expect(p('The cakes were quickly baked.')).toBe(true);
    expect(p('Mistakes are not always forgiven.')).toBe(true);
    expect(p('Ana wrote the report.')).toBe(false);
    expect(p('The team is ready.')).toBe(false);
  });

  it('reports long sentences, transition share and repeated openings', () => {
    const text = [
      'The plan works. The plan scales. The plan is cheap.',
      'This sentence is deliberately long because it keeps adding clauses and words until it clearly passes twenty words in total today.',
    ].join(' ');
    const r = analyzeSeo({ content: text });
    expect(r.readability_details.sentence_length.over_20_words_share).toBeCloseTo(0.25, 6);
    expect(r.findings.some((f) => f.assessment === 'sentence_length')).toBe(false); // 25% is allowed
    const run = r.findings.find((f) => f.assessment === 'consecutive_sentences')!;
    expect(text.slice(run.start, run.end)).toBe('The plan works. The plan scales. The plan is cheap.');
    expect(r.findings.filter((f) => f.assessment === 'sentence_length')).toHaveLength(0);
    expect(r.readability_details.transition_word_share).toBe(0.25); // "because"
  });
});

describe('links, images and suggestions', () => {
  const md = [
    'Our [pricing](/pricing) page and <a href="https://example.com/docs">the docs</a> explain it.',
    '![](a.png) ![screenshot](b.png) ![Chart of monthly sourdough sales](c.png) <img src="d.png">',
    'Sourdough starters need regular feeding with flour and water.',
  ].join('\n\n');

  it('counts images with and without alt text and rates quality', () => {
    const r = analyzeSeo({ content: md }, { site_url: 'https://mysite.com' });
    expect(r.image_alt_status).toEqual({ images_with_alt: 2, images_without_alt: 2, alt_text_quality: 'poor' });
    const img = r.findings.filter((f) => f.assessment === 'image_alt').map((f) => md.slice(f.start, f.end));
    expect(img.sort()).toEqual(['![](a.png)', '![screenshot](b.png)', '<img src="d.png">']);
    expect(r.findings.some((f) => f.assessment === 'links')).toBe(false); // one internal, one outbound
  });

  it('suggests links from research sources on the best matching sentence', () => {
    const r = analyzeSeo({
      content: md,
      research_data: {
        sources: [
          {
            title: 'Feeding a sourdough starter',
            url: 'https://bake.example/starter',
            excerpt: 'Feed your starter flour and water daily.',
          },
        ],
      },
    });
    expect(r.link_suggestions).toHaveLength(1);
    const s = r.link_suggestions[0];
    expect(s.suggested_url).toBe('https://bake.example/starter');
    expect(s.context).toBe('Sourdough starters need regular feeding with flour and water.');
    expect(md.slice(s.start, s.end)).toBe(s.text);
    // the longest run of source terms (stop words may sit inside it)
    expect(s.text).toBe('feeding with flour and water');
  });
});

describe('seo_score', () => {
  it('weights sum to 100', () => {
    expect(Object.values(SEO_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('is 0-100 and higher for a well-formed post than for a bare one', () => {
    const good = [
      '# Sourdough bread basics',
      '',
      'Sourdough bread needs only flour, water and salt. However, timing matters more than the recipe.',
      '',
      '![Loaf of sourdough bread on a board](loaf.jpg)',
      '',
      '## Why sourdough bread rises',
      '',
      // Distinct sentences: the same sentence said eight times is repetition, which caps seo_score (coherence).
      [
        'Wild yeast feeds on flour, so the dough rises slowly. For example, a cool kitchen slows it down.',
        'A warm spot near the oven speeds the rise, but it can also make the bread taste sour.',
        'Most bakers leave the dough in the fridge overnight, because the flavour deepens with time.',
        'Rye flour wakes up a sluggish starter, since it carries more wild yeast than white flour does.',
        'However, too much rye makes the crumb dense and heavy, so a small handful is plenty.',
        'The dough is ready when it has grown by about half and feels light and airy in the bowl.',
        'If you poke it and the dent springs back slowly, it is time to shape the loaf.',
        'Shape it gently, so that you keep the bubbles the starter worked hard to make.',
      ].join(' '),
      '',
      'Read our [starter guide](/starter) and the [flour study](https://example.org/flour).',
      '',
      '## Baking sourdough bread at home',
      '',
      '- Mix the dough',
      '- Fold it every hour',
      '- Bake it hot',
      '',
      [
        'Therefore, bake the loaf in a very hot oven. Then let it cool before you slice it.',
        'A heavy pot with a lid traps the steam, so the crust stays soft while the loaf expands.',
        'After twenty minutes, take the lid off and let the crust turn a deep brown.',
        'A hollow sound when you tap the base of the loaf means the bread is done.',
        'Finally, wait at least an hour before cutting, because the crumb keeps setting as it cools.',
        'Sourdough bread keeps for several days in a paper bag on the kitchen counter.',
        'For longer storage, slice the loaf first and freeze the slices in a bag.',
        'Toast them straight from the freezer, and they taste almost as good as fresh bread.',
      ].join(' '),
    ].join('\n');
    const a = analyzeSeo({ content: good, blog_title: 'Sourdough bread basics', keywords: ['sourdough bread'] });
    const b = analyzeSeo({ content: 'bread is nice', keywords: ['sourdough bread'] });
    expect(a.seo_score).toBeGreaterThanOrEqual(0);
    expect(a.seo_score).toBeLessThanOrEqual(100);
    expect(a.seo_score).toBeGreaterThan(b.seo_score + 30);
    expect(Object.keys(a)).toEqual(
      expect.arrayContaining([
        'seo_score',
        'density',
        'structure',
        'readability',
        'link_suggestions',
        'image_alt_status',
        'recommendations',
      ]),
    );
    expect(Object.keys(a.readability)).toEqual([
      'flesch_reading_ease',
      'flesch_kincaid_grade',
      'gunning_fog',
      'coleman_liau',
    ]);
  });
});
