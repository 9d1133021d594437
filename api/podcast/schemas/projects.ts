/**
 * Schemas of the podcast maker's project routes (api/podcast/projects.ts): a
 * project's creation, update, favourite flag and listing; the project as
 * answered, with its notes, script and recorded assets.
 */
import type { JsonSchema } from '../../kernel/envelopes/common';
import { anyString, arr, bool, int, iso, mapOf, num, str, text, uuid, withRequired } from '../../kernel/schema';
import { analysisSchema, enhancedIdeaSchema, queriesSchema, researchSchema, scriptSchema } from './analysis';
import { cueSchema, d, strs, timedLineSchema } from './common';

export const projectBody: JsonSchema = withRequired(
  {
    title: text(300, {
      pattern: '\\S',
      description: 'Default: derived from idea (its first sentence); one of title and idea is required',
    }),
    idea: str(2000),
    state: {
      type: 'object',
      maxProperties: 100,
      description: "the client's own workflow state (step, choices), stored as given",
    },
  },
  [],
  { anyOf: [{ required: ['title'] }, { required: ['idea'] }] },
);
export const projectUpdateBody: JsonSchema = withRequired(
  {
    title: text(300, { pattern: '\\S' }),
    idea: str(2000),
    state: projectBody.properties && (projectBody.properties as Record<string, JsonSchema>).state,
  },
  [],
  { minProperties: 1 },
);
export const favoriteBody: JsonSchema = withRequired({ favorite: { type: 'boolean', default: true } }, []);
export const listQuery: JsonSchema = withRequired(
  {
    favorite: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, maximum: 100000, default: 0 },
  },
  [],
);

// ---- Response shapes (what the handlers and activities really return; docs/podcast.md) ----

const assetBase = {
  created_at: iso,
  url: d(anyString, 'where the file is served (absent for assets without a file route)'),
};
const kind = (k: string) => ({ const: k });
export const assetSchema: JsonSchema = {
  oneOf: [
    withRequired(
      {
        kind: kind('scene_audio'),
        scene_id: anyString,
        filename: anyString,
        duration_seconds: num,
        lines: arr(timedLineSchema),
        cues: arr(cueSchema),
        provider: d(anyString, '`local`, `tts_vendor` or `upload`'),
        source: { enum: ['tts', 'upload'] },
        task_id: anyString,
        ...assetBase,
      },
      ['kind', 'scene_id', 'filename', 'duration_seconds', 'lines', 'provider', 'source', 'created_at'],
    ),
    withRequired(
      {
        kind: kind('combined_audio'),
        filename: anyString,
        duration_seconds: num,
        scene_ids: arr(anyString),
        task_id: anyString,
        ...assetBase,
      },
      ['kind', 'filename', 'duration_seconds', 'scene_ids', 'created_at'],
    ),
    withRequired(
      {
        kind: kind('image'),
        scene_id: anyString,
        image_key: anyString,
        width: int,
        height: int,
        provider: anyString,
        ...assetBase,
      },
      ['kind', 'image_key', 'width', 'height', 'provider', 'created_at'],
    ),
    withRequired(
      {
        kind: kind('scene_video'),
        scene_id: anyString,
        filename: anyString,
        part: d(anyString, 'the stored picture segment (not served; combining re-uses it)'),
        audio_filename: anyString,
        duration_seconds: num,
        width: int,
        height: int,
        fps: int,
        cues: arr(cueSchema),
        task_id: anyString,
        ...assetBase,
      },
      ['kind', 'scene_id', 'filename', 'duration_seconds', 'width', 'height', 'fps', 'created_at'],
    ),
    withRequired(
      {
        kind: kind('final_video'),
        filename: anyString,
        files: strs('the MP4 and its SRT and WebVTT subtitles'),
        duration_seconds: num,
        scene_ids: arr(anyString),
        task_id: anyString,
        ...assetBase,
      },
      ['kind', 'filename', 'files', 'duration_seconds', 'scene_ids', 'created_at'],
    ),
    withRequired(
      {
        kind: kind('avatar'),
        speaker: anyString,
        image_key: anyString,
        operation: d(anyString, '`upload`, `make_presentable` or `generate`'),
        ...assetBase,
      },
      ['kind', 'image_key', 'operation', 'created_at'],
    ),
    withRequired(
      {
        kind: kind('dub'),
        filename: anyString,
        target_language: anyString,
        duration_seconds: num,
        task_id: anyString,
        ...assetBase,
      },
      ['kind', 'filename', 'target_language', 'duration_seconds', 'created_at'],
    ),
  ],
  description: 'a file or image made for the project, by `kind`',
};

export const projectSchema: JsonSchema = withRequired(
  {
    project_id: uuid,
    title: { type: 'string' },
    idea: { type: 'string' },
    favorite: bool,
    state: mapOf(
      {},
      { description: "the client's own workflow state (step, choices), as it last sent it (`{}` if never)" },
    ),
    notes: withRequired(
      {
        enhanced_idea: d(enhancedIdeaSchema, 'the last POST /idea/enhance with this project_id'),
        analysis: d(analysisSchema, 'the last POST /analyze'),
        queries: d(queriesSchema, 'the last POST /regenerate-queries'),
        research: d(researchSchema, 'the last POST /research/exa'),
      },
      [],
      { description: 'results of the analysis routes run with this project_id' },
    ),
    script: d(scriptSchema, 'the current script version (absent before POST /script)'),
    script_version: int,
    script_approved: bool,
    script_approved_at: iso,
    assets: arr(assetSchema),
    next_step: { enum: ['script', 'approve_script', 'audio', 'combine_audio', 'video', 'combine_videos', 'done'] },
    created_at: iso,
    updated_at: iso,
  },
  [
    'project_id',
    'title',
    'idea',
    'favorite',
    'state',
    'notes',
    'script_version',
    'script_approved',
    'assets',
    'next_step',
    'created_at',
    'updated_at',
  ],
);
