/**
 * Schemas of the podcast maker's writing routes (api/podcast/analysis.ts): idea
 * enhancement, analysis, research queries, research, the script and its
 * approval; request bodies, then the answers.
 */
import { MAX_DURATION_MINUTES, MAX_SPEAKERS, MIN_DURATION_MINUTES } from '../../../domain/podcast/types';
import type { JsonSchema } from '../../kernel/envelopes/common';
import { arr, bool, coverageSchema, int, num, obj, str, strings, text, uuid } from '../../kernel/schema';
import { voiceSchema } from '../../video/schemas';
import { d, nullable, projectIdField, S, strs, textProvider } from './common';

export const ideaBody: JsonSchema = obj(
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

export const queriesBody: JsonSchema = obj(
  {
    ...(ideaBody.properties as object),
    count: { type: 'integer', minimum: 1, maximum: 20, default: 6 },
    previous: strings(50, 300, { description: 'queries to avoid repeating' }),
  },
  ['idea'],
);

export const researchBody: JsonSchema = obj(
  {
    queries: strings(10, 300, { minItems: 1, items: { type: 'string', minLength: 1, maxLength: 300, pattern: '\\S' } }),
    project_id: projectIdField,
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 12, description: 'sources in all' },
  },
  ['queries'],
);

export const speakerSchema: JsonSchema = obj(
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

export const scriptBody: JsonSchema = obj(
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

export const approveBody: JsonSchema = obj(
  {
    project_id: uuid,
    version: { type: 'integer', minimum: 1, description: 'the script version approved (default: the current one)' },
  },
  ['project_id'],
);

// ---- Response shapes (what the handlers and activities really return; docs/podcast.md) ----

/** Which writer answered an AI call (the offline writer `local` says so). */
export const writerFields = {
  provider: d(S, 'the text provider that answered (`local`: the offline writer, not a language model)'),
  model: d(S, 'its model'),
  offline: d(bool, 'true when no vendor was asked'),
};

export const enhancedIdeaSchema: JsonSchema = obj(
  {
    enhanced_idea: d(S, 'the idea restated as an episode pitch'),
    title_suggestions: strs('episode titles'),
    hooks: strs('opening hooks'),
    keywords: strs('content words of the idea'),
  },
  ['enhanced_idea'],
);
export const analysisSchema: JsonSchema = obj(
  {
    audience: d(S, 'who the episode is for'),
    angle: d(S, 'the episode angle'),
    tone: S,
    keywords: strs('content words'),
    segment_outline: arr(
      obj(
        {
          title: S,
          minutes: d(num, 'planned length of the segment'),
          goal: d(S, 'what the segment does for the listener'),
        },
        ['title'],
      ),
      { description: 'segments in order (the offline script writer uses their titles as scene topics)' },
    ),
    questions: strs('questions the episode answers'),
  },
  ['audience', 'angle', 'segment_outline'],
);
export const queriesSchema: JsonSchema = obj({ queries: strs('research queries') }, ['queries']);

export const researchSourceSchema: JsonSchema = obj(
  {
    title: S,
    url: S,
    excerpt: d(S, 'the passage found'),
    credibility_score: nullable('number', 'null: no credibility claimed (sample documents of the research corpus)'),
    published_at: S,
    index: int,
    source_type: d(S, 'web, academic, industry, government, or sample (a sample document written for this platform)'),
    sample_of: d(S, 'for sample documents: the kind of source the sample is written as'),
  },
  ['title', 'url'],
);
export const researchSchema: JsonSchema = obj(
  {
    source: d(S, '`corpus`, or `<vendor>+corpus` when a web-search vendor is configured'),
    web_search_vendor: nullable('string', 'the web-search vendor asked (null: none configured)'),
    offline: d(bool, 'true when only the local corpus was searched'),
    results: arr(obj({ query: S, sources: arr(researchSourceSchema) }), {
      description: "each query's sources (a source found by an earlier query is listed once)",
    }),
    total_sources: int,
  },
  ['source', 'web_search_vendor', 'offline', 'results', 'total_sources'],
);

const speakerOut: JsonSchema = obj(
  {
    id: S,
    name: S,
    role: S,
    gender: d({ enum: ['female', 'male'] }, "the voice's gender"),
    voice_basis: d(
      { enum: ['voice', 'gender', 'name', 'order'] },
      'why the speaker has this voice: named, by declared gender, by the given name, or by order',
    ),
    voice: obj({ voice: S, rate: num, pitch: num }, []),
  },
  ['id', 'name', 'voice'],
);
export const scriptSchema: JsonSchema = obj(
  {
    title: S,
    idea: S,
    duration_minutes: num,
    words_per_minute: d(int, '150'),
    target_words: d(int, 'duration_minutes × words_per_minute'),
    word_count: int,
    estimated_seconds: d(num, 'word_count at words_per_minute'),
    speakers: arr(speakerOut),
    scenes: arr(
      obj({
        scene_id: d(S, '`scene-<n>`'),
        index: int,
        title: S,
        lines: arr(obj({ speaker: d(S, 'speaker id'), text: S })),
        target_words: int,
        word_count: int,
        estimated_seconds: num,
      }),
    ),
    provider: S,
    model: S,
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

export const scriptResult: JsonSchema = obj({ project_id: uuid, version: int, script: scriptSchema }, [
  'project_id',
  'version',
  'script',
]);
