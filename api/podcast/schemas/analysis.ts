/**
 * Schemas of the podcast maker's writing routes (api/podcast/analysis.ts): idea
 * enhancement, analysis, research queries, research, the script and its
 * approval; request bodies, then the answers.
 */
import { MAX_DURATION_MINUTES, MAX_SPEAKERS, MIN_DURATION_MINUTES } from '../../../domain/podcast/types';
import type { JsonSchema } from '../../kernel/envelopes/common';
import {
  allRequired,
  anyString,
  arr,
  bool,
  coverageSchema,
  int,
  nullable,
  num,
  str,
  strings,
  text,
  uuid,
  withRequired,
} from '../../kernel/schema';
import { voiceSchema } from '../../video/schemas';
import { d, projectIdField, strs, textProvider } from './common';

export const ideaBody: JsonSchema = withRequired(
  {
    idea: text(2000, { pattern: '\\S' }),
    project_id: projectIdField,
    audience: str(300),
    tone: str(100),
    duration_minutes: { type: 'number', minimum: MIN_DURATION_MINUTES, maximum: MAX_DURATION_MINUTES },
    context: str(8000, { description: 'notes the writer may use (previous analysis, show bible)' }),
    provider: textProvider,
  },
  ['idea'],
);

export const queriesBody: JsonSchema = withRequired(
  {
    ...(ideaBody.properties as object),
    count: { type: 'integer', minimum: 1, maximum: 20, default: 6 },
    previous: strings(50, 300, { description: 'queries to avoid repeating' }),
  },
  ['idea'],
);

export const researchBody: JsonSchema = withRequired(
  {
    queries: strings(10, 300, { minItems: 1, items: { type: 'string', minLength: 1, maxLength: 300, pattern: '\\S' } }),
    project_id: projectIdField,
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 12, description: 'sources in all' },
  },
  ['queries'],
);

export const speakerSchema: JsonSchema = withRequired(
  {
    id: str(40, { pattern: '^[a-z0-9_]{1,40}$' }),
    name: text(80, { pattern: '\\S' }),
    role: str(120),
    gender: {
      enum: ['female', 'male'],
      description:
        "the voice's gender when no voice is named (default: the gender the given name is usually given to, else alternating by order)",
    },
    voice: voiceSchema,
  },
  ['name'],
);

export const scriptBody: JsonSchema = withRequired(
  {
    idea: text(2000, { pattern: '\\S' }),
    duration_minutes: {
      type: 'number',
      minimum: MIN_DURATION_MINUTES,
      maximum: MAX_DURATION_MINUTES,
      description: 'sized at 150 spoken words a minute',
    },
    speakers: {
      oneOf: [
        arr(speakerSchema, { minItems: 1, maxItems: MAX_SPEAKERS }),
        { type: 'integer', minimum: 1, maximum: MAX_SPEAKERS },
      ],
      description: `The speakers ({name, role?, voice?}, 1 to ${MAX_SPEAKERS}), or how many (a host, then guests: 2 is Host and Guest); the answer lists them`,
    },
    project_id: { ...uuid, description: 'the project to write into (a new project is created when absent)' },
    research: str(20000),
    analysis: str(20000),
    bible: str(20000, { description: 'show bible: recurring segments, style, facts about the show' }),
    tone: str(100),
    provider: textProvider,
  },
  ['idea', 'duration_minutes', 'speakers'],
);

export const approveBody: JsonSchema = withRequired(
  {
    project_id: uuid,
    version: { type: 'integer', minimum: 1, description: 'the script version approved (default: the current one)' },
  },
  ['project_id'],
);

// ---- Response shapes (what the handlers and activities really return; docs/podcast.md) ----

/** Which writer answered an AI call (the offline writer `local` says so). */
export const writerFields = {
  provider: d(anyString, 'the text provider that answered (`local`: the offline writer, not a language model)'),
  model: d(anyString, 'its model'),
  offline: d(bool, 'true when no vendor was asked'),
};

export const enhancedIdeaSchema: JsonSchema = withRequired(
  {
    enhanced_idea: d(anyString, 'the idea restated as an episode pitch'),
    title_suggestions: strs('episode titles'),
    hooks: strs('opening hooks'),
    keywords: strs('content words of the idea'),
  },
  ['enhanced_idea'],
);
export const analysisSchema: JsonSchema = withRequired(
  {
    audience: d(anyString, 'who the episode is for'),
    angle: d(anyString, 'the episode angle'),
    tone: anyString,
    keywords: strs('content words'),
    segment_outline: arr(
      withRequired(
        {
          title: anyString,
          minutes: d(num, 'planned length of the segment'),
          goal: d(anyString, 'what the segment does for the listener'),
        },
        ['title'],
      ),
      { description: 'segments in order (the offline script writer uses their titles as scene topics)' },
    ),
    questions: strs('questions the episode answers'),
  },
  ['audience', 'angle', 'segment_outline'],
);
export const queriesSchema: JsonSchema = withRequired({ queries: strs('research queries') }, ['queries']);

export const researchSourceSchema: JsonSchema = withRequired(
  {
    title: anyString,
    url: anyString,
    excerpt: d(anyString, 'the passage found'),
    credibility_score: d(nullable(num), 'null: no credibility claimed (sample documents of the research corpus)'),
    published_at: anyString,
    index: int,
    source_type: d(
      anyString,
      'web, academic, industry, government, or sample (a sample document written for this platform)',
    ),
    sample_of: d(anyString, 'for sample documents: the kind of source the sample is written as'),
  },
  ['title', 'url'],
);
export const researchSchema: JsonSchema = withRequired(
  {
    source: d(anyString, '`corpus`, or `<vendor>+corpus` when a web-search vendor is configured'),
    web_search_vendor: d(nullable(anyString), 'the web-search vendor asked (null: none configured)'),
    offline: d(bool, 'true when only the local corpus was searched'),
    results: arr(allRequired({ query: anyString, sources: arr(researchSourceSchema) }), {
      description: "each query's sources (a source found by an earlier query is listed once)",
    }),
    total_sources: int,
  },
  ['source', 'web_search_vendor', 'offline', 'results', 'total_sources'],
);

const speakerOut: JsonSchema = withRequired(
  {
    id: anyString,
    name: anyString,
    role: anyString,
    gender: d({ enum: ['female', 'male'] }, "the voice's gender"),
    voice_basis: d(
      { enum: ['voice', 'gender', 'name', 'order'] },
      'why the speaker has this voice: named, by declared gender, by the given name, or by order',
    ),
    voice: withRequired({ voice: anyString, rate: num, pitch: num }, []),
  },
  ['id', 'name', 'voice'],
);
export const scriptSchema: JsonSchema = withRequired(
  {
    title: anyString,
    idea: anyString,
    duration_minutes: num,
    words_per_minute: d(int, '150'),
    target_words: d(int, 'duration_minutes × words_per_minute'),
    word_count: int,
    estimated_seconds: d(num, 'word_count at words_per_minute'),
    speakers: arr(speakerOut),
    scenes: arr(
      allRequired({
        scene_id: d(anyString, '`scene-<n>`'),
        index: int,
        title: anyString,
        lines: arr(allRequired({ speaker: d(anyString, 'speaker id'), text: anyString })),
        target_words: int,
        word_count: int,
        estimated_seconds: num,
      }),
    ),
    provider: anyString,
    model: anyString,
    offline: bool,
    coverage: d(
      coverageSchema,
      'offline writer only: what the script was built from (outline segments as key points, research sentences as sources) and why it is shorter than the duration asks (it never pads); absent when a vendor wrote it',
    ),
  },
  [
    'title',
    'idea',
    'duration_minutes',
    'words_per_minute',
    'target_words',
    'word_count',
    'estimated_seconds',
    'speakers',
    'scenes',
    'provider',
    'model',
    'offline',
  ],
);

export const scriptResult: JsonSchema = withRequired({ project_id: uuid, version: int, script: scriptSchema }, [
  'project_id',
  'version',
  'script',
]);
