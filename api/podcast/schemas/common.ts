/**
 * JSON Schemas of the podcast maker, one file per route group beside this one
 * (Document 2 leaves every field "not shown"; these are our choices, documented
 * in docs/podcast.md). Voices and task records are the video studio's shapes
 * (api/video/schemas.ts). This file holds the pieces the groups share: the text
 * provider, scene and project ids, the small builders of the response shapes,
 * the timed lines and cues of recorded audio, the loudness report, a stored
 * file's answer, and the path parameters.
 */
import type { JsonSchema } from '../../kernel/envelopes/common';
import { allRequired, anyString, int, nullable, num, params, str, uuid, withRequired } from '../../kernel/schema';

export const textProvider = {
  enum: ['auto', 'local', 'vendor_a', 'vendor_b'],
  default: 'auto',
  description: 'text provider (local: the offline writer)',
};
export const sceneId = str(12, { pattern: '^scene-[0-9]{1,3}$', description: "`scene-<n>` of the project's script" });
export const projectIdField = { ...uuid, description: 'the podcast project' };

export const d = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
export const strs = (description: string): JsonSchema => ({ type: 'array', items: anyString, description });

export const cueSchema: JsonSchema = allRequired({ start: num, end: num, text: anyString });
export const timedLineSchema: JsonSchema = withRequired(
  {
    speaker: d(anyString, 'speaker id'),
    voice: anyString,
    text: anyString,
    start: d(num, 'seconds from the start of the scene (measured)'),
    end: num,
  },
  ['speaker', 'text', 'start', 'end'],
);

export const loudnessSchema: JsonSchema = withRequired(
  {
    target_lufs: d(num, 'integrated loudness aimed at (−16)'),
    target_true_peak_dbtp: num,
    measured_input_lufs: d(nullable(num), 'first pass: the joined input (null when unmeasurable)'),
    measured_output_lufs: d(nullable(num), 'the delivered file, measured again'),
    method: anyString,
  },
  ['target_lufs', 'target_true_peak_dbtp', 'method'],
);

export const fileResult = (extra: Record<string, unknown> = {}, required: string[] = []): JsonSchema =>
  withRequired(
    {
      project_id: d(nullable(anyString), 'the project the file was recorded on'),
      filename: anyString,
      url: d(anyString, 'where the file is served'),
      content_type: anyString,
      size: d(int, 'bytes'),
      duration_seconds: d(num, 'measured with ffprobe'),
      ...extra,
    },
    ['filename', 'url', ...required],
  );
export const projectIdParams = params({ project_id: uuid });
export const taskIdParams = params({ task_id: str(100, { pattern: '^[A-Za-z0-9_-]{1,100}$' }) });
export const filenameParams = params({
  filename: str(200, {
    pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9]+)*$',
    description: 'a single file name: `/`, `\\` and `..` are refused',
  }),
});
export const imagePathParams = params({
  path: str(80, { pattern: '^[0-9a-f]{64}\\.(png|jpg|webp)$', description: 'an image key' }),
});
