/** JSON Schemas of the content generation routes (validation and the OpenAPI document). */
import { LENGTHS, RESEARCH_DEPTHS, SOURCE_KINDS } from '../../domain/content/types';
import { PLATFORM_NAMES } from '../../domain/content/platforms';
import {
  allRequired,
  arr,
  bool,
  coverageSchema,
  int,
  nullable,
  num,
  str,
  strings,
  text,
  withRequired,
} from '../kernel/schema';
import { sourceResult } from '../blog/schemas';

/** An array of at most `maxItems` non-empty strings of at most `maxLength` characters. */
export const words = (maxItems: number, maxLength: number, extra: Record<string, unknown> = {}) => ({
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength },
  maxItems,
  ...extra,
});

const keywords = words(20, 100, { default: [], description: 'Keywords the text should target (at most 20)' });

export const blogWriterBody = withRequired(
  {
    topic: text(300, { pattern: '\\S' }),
    target_audience: str(300),
    content_type: { ...str(100), default: 'post', description: 'e.g. post, how-to-guide, listicle' },
    word_count: { ...int, minimum: 100, maximum: 5000, description: 'Words wanted; wins over length' },
    tone: { ...str(100), default: 'professional' },
    keywords,
    length: { enum: LENGTHS, description: 'short 500, medium 1000, long 1800, long_form 2500 words' },
  },
  ['topic'],
);

export const researchBody = withRequired(
  {
    topic: text(300, { pattern: '\\S' }),
    research_depth: {
      enum: Object.keys(RESEARCH_DEPTHS),
      default: 'standard',
      description: 'basic 4 sources, standard 8, comprehensive 12',
    },
    sources: {
      type: 'array',
      items: { enum: [...SOURCE_KINDS] },
      minItems: 1,
      uniqueItems: true,
      default: ['web', 'academic', 'industry'],
      description: 'Kinds of sources to read',
    },
  },
  ['topic'],
);

export const profnetBody = withRequired(
  {
    content_type: { ...str(100), default: 'post', description: 'post or article (an article quotes more sources)' },
    topic: text(300, { pattern: '\\S' }),
    tone: { ...str(100), default: 'professional' },
    include_hashtags: { ...bool, default: true },
    target_audience: str(300),
    hashtags: words(10, 60, { default: [], description: 'Hashtags the post must carry (they come first)' }),
  },
  ['topic'],
);

export const strategyBody = withRequired(
  {
    business_type: text(200, { pattern: '\\S' }),
    target_audience: str(300),
    goals: words(10, 100, { minItems: 1, description: 'e.g. lead_generation, brand_awareness' }),
    content_types: words(10, 100, { minItems: 1, description: 'e.g. blog, social, email' }),
  },
  ['business_type', 'goals', 'content_types'],
);

export const personasBody = allRequired({
  business_niche: text(200, { pattern: '\\S' }),
  target_demographics: withRequired(
    { age_range: str(40), profession: str(100), pain_points: words(10, 200, { minItems: 1 }) },
    ['pain_points'],
  ),
});

const sourceRef = withRequired({ index: int, title: { type: 'string' }, url: { type: 'string' } }, ['title', 'url']);
const provenance = {
  provider: { type: 'string', description: 'vendor_a, vendor_b or local (the offline writer)' },
  model: { type: 'string' },
  offline: bool,
  coverage: coverageSchema,
};
export const scoresSchema = {
  word_count: int,
  readability_score: { ...num, description: 'Flesch reading ease, 0-100' },
  seo_score: { ...num, description: 'SEO score 0-100 of the analysis engine' },
};

export const generatedSchema = allRequired({
  content: { type: 'string' },
  metadata: withRequired({ ...scoresSchema, ...provenance, sources: arr(sourceRef), recommendations: strings() }, [
    'word_count',
    'readability_score',
    'seo_score',
    'provider',
  ]),
});

/** A recommendation quoting research source `source` (its [n]). */
const citedAdvice = allRequired({ text: { type: 'string' }, source: int });

export const researchResultSchema = withRequired(
  {
    topic: { type: 'string' },
    research_depth: { type: 'string' },
    sources: arr(sourceResult, { description: 'The sources read, numbered from 1 (`index`)' }),
    keyword_analysis: withRequired(
      {
        primary_keywords: strings(),
        secondary_keywords: strings(),
        search_volume: {
          type: 'string',
          description: 'Offline: a level estimated from how many sources cover the main keyword, saying so',
        },
      },
      [],
    ),
    competitor_analysis: withRequired(
      {
        top_competitors: strings(),
        content_gaps: strings(),
        opportunities: strings(),
        note: { type: 'string', description: 'Why top_competitors is empty (every source is a sample document)' },
      },
      [],
    ),
    suggested_angles: strings(),
    search_queries: strings(),
    metadata: withRequired({ ...provenance, searched: { type: 'string' }, sources_found: int }, [
      'provider',
      'searched',
    ]),
  },
  ['topic', 'sources', 'keyword_analysis', 'metadata'],
);

export const profnetResultSchema = withRequired(
  {
    content: { type: 'string' },
    hashtags: strings(),
    call_to_action: { type: ['string', 'null'] },
    metadata: withRequired({ ...scoresSchema, ...provenance, character_count: int, character_limit: int }, [
      'provider',
      'character_count',
    ]),
  },
  ['content', 'hashtags', 'metadata'],
);

export const strategyResultSchema = withRequired(
  {
    strategy: withRequired(
      {
        summary: { type: 'string' },
        content_pillars: arr(
          withRequired(
            {
              name: { type: 'string' },
              rationale: { type: 'string' },
              sources: arr(int, { description: 'The research sources (their [n]) covering the pillar' }),
            },
            ['name'],
          ),
        ),
        goals: arr(
          withRequired(
            { goal: { type: 'string' }, approach: arr(citedAdvice), kpis: arr(citedAdvice), note: { type: 'string' } },
            ['goal'],
          ),
        ),
        content_types: arr(
          withRequired(
            { content_type: { type: 'string' }, recommendations: arr(citedAdvice), note: { type: 'string' } },
            ['content_type'],
          ),
        ),
        distribution: arr(citedAdvice),
        references: arr(sourceRef),
      },
      ['summary'],
    ),
    metadata: withRequired(provenance, ['provider']),
  },
  ['strategy', 'metadata'],
);

export const personasResultSchema = withRequired(
  {
    personas: arr(
      withRequired(
        {
          label: { type: 'string', description: 'Built from the profession, age range and niche (no invented name)' },
          summary: { type: 'string' },
          demographics: withRequired(
            { age_range: nullable({ type: 'string' }), profession: nullable({ type: 'string' }) },
            [],
          ),
          pain_points: arr(
            withRequired(
              {
                pain_point: { type: 'string' },
                insights: arr(citedAdvice),
                content_ideas: strings(),
                note: { type: 'string', description: 'Present when no research source covers the pain point' },
              },
              ['pain_point'],
            ),
          ),
          preferred_content: arr(citedAdvice),
          channels: arr(citedAdvice),
        },
        ['label'],
      ),
      { description: 'One persona, carrying the demographics given' },
    ),
    references: arr(sourceRef),
    metadata: withRequired(provenance, ['provider']),
  },
  ['personas', 'metadata'],
);

export const platformEnum = { enum: PLATFORM_NAMES };
