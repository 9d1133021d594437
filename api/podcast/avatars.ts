/**
 * Speaker avatars: upload (a validated PNG/JPEG/WebP, up to the image
 * studio's input limit), make-presentable (a square crop centred on the most
 * interesting region — sharp's attention strategy, which favours faces and
 * skin tones — with the flat background found at the edges replaced by a
 * clean colour), generate (the image studio's generation). Avatars are
 * image-studio images of the caller, served by GET /api/podcast/images/{path}.
 */
import sharp from 'sharp';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { removeBackgroundLocal } from '../../infra/image/local-edits';
import { getImageAsset } from '../../projections/image-assets';
import { userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { str, text, withRequired } from '../kernel/schema';
import { decode, extOf, storeAndRecord, studioOf } from '../image-studio/common';
import { Ctx, currentProject, PREFIX, projectCommand, tags, urlOf } from './common';
import { generatePicture } from './visuals';

const avatarResult = withRequired(
  {
    image_key: { type: 'string' },
    url: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    operation: { type: 'string' },
    provider: { type: 'string' },
    project_id: { type: ['string', 'null'] },
    details: withRequired(
      {
        crop: { type: 'string', description: 'how the square was chosen' },
        background_replaced: { type: 'boolean', description: 'a flat background was found and replaced' },
        background_found: {
          type: ['string', 'null'],
          description:
            'the edge colour found, `#rrggbb`; null when the edge has no one colour (a photo, left as it is)',
        },
        removed_fraction: { type: 'number', description: 'share of the pixels taken as background (0–1)' },
      },
      ['crop', 'background_replaced', 'background_found', 'removed_fraction'],
      { description: 'make-presentable only: what was done' },
    ),
  },
  ['image_key', 'url', 'width', 'height', 'operation'],
);
const common = {
  project_id: {
    type: 'string',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  },
  speaker: str(40, { pattern: '^[a-z0-9_]{1,40}$' }),
};
const ERRORS = {
  404: "No such project or image (or not the caller's)",
  503: 'Image storage or background work is not available',
};

/** Records the avatar on the project when one is named. */
async function attach(ctx: Ctx, b: { project_id?: string; speaker?: string }, key: string, operation: string) {
  if (!b.project_id) return null;
  await projectCommand(ctx, b.project_id, {
    kind: 'attach',
    user_id: userIdOf(ctx),
    asset: {
      kind: 'avatar',
      ...(b.speaker ? { speaker: b.speaker } : {}),
      image_key: key,
      operation,
      created_at: new Date().toISOString(),
    },
  });
  return b.project_id;
}

export const avatarRoutes: RouteDef[] = [
  defineRoute<{ image_base64: string; project_id?: string; speaker?: string }>({
    method: 'post',
    path: `${PREFIX}/avatar/upload`,
    auth: 'user',
    successBody: 'bare',
    tags,
    bodyLimitBytes: 16 * 1024 * 1024,
    summary: "Upload a speaker's avatar (PNG, JPEG or WebP; validated)",
    description:
      "Stores the image as given (after the image studio's decoder has checked it: PNG, JPEG or WebP, within its size and pixel limits) as an image of the caller, served at `url` (GET /api/podcast/images/{path}). With `project_id` (the caller's, else 404) it is recorded on the project as an `avatar` asset of `speaker`; without, `project_id` is null. POST /avatar/make-presentable crops and cleans it.",
    request: {
      body: withRequired({ image_base64: text(16 * 1024 * 1024, { description: 'base64 or a data URL' }), ...common }, [
        'image_base64',
      ]),
    },
    responses: { 201: { description: 'The stored avatar', data: avatarResult } },
    errors: ERRORS,
    async handler(ctx) {
      const b = ctx.body;
      if (b.project_id) await currentProject(ctx, b.project_id);
      const img = await decode(ctx, b.image_base64, 'image_base64');
      const s = await storeAndRecord(ctx, img.bytes, extOf(img), {
        width: img.width,
        height: img.height,
        operation: 'podcast.avatar_upload',
        provider: 'local',
        model: 'upload',
      });
      const project = await attach(ctx, b, s.key, 'upload');
      return {
        status: 201,
        data: {
          image_key: s.key,
          url: urlOf(ctx, 'images', s.key),
          width: img.width,
          height: img.height,
          operation: 'upload',
          provider: 'local',
          project_id: project,
        },
      };
    },
  }),

  defineRoute<{
    image_key?: string;
    image_base64?: string;
    size: number;
    background: string;
    project_id?: string;
    speaker?: string;
  }>({
    method: 'post',
    path: `${PREFIX}/avatar/make-presentable`,
    auth: 'user',
    successBody: 'bare',
    tags,
    bodyLimitBytes: 16 * 1024 * 1024,
    summary: 'Make an avatar presentable: face-centred square crop, clean background',
    description:
      "Square crop of `size` pixels centred by sharp's attention strategy (regions of highest luminance frequency, saturation and skin tones: faces), the flat background found at the image's edges (if any) replaced by `background`; a gentle normalise. Offline (sharp); the image is stored as a new PNG.",
    request: {
      body: withRequired(
        {
          image_key: str(80, { pattern: '^[0-9a-f]{64}\\.(png|jpg|webp)$' }),
          image_base64: str(16 * 1024 * 1024, { minLength: 8 }),
          size: { type: 'integer', minimum: 64, maximum: 2048, default: 512 },
          background: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', default: '#f5f5f5' },
          ...common,
        },
        [],
        { anyOf: [{ required: ['image_key'] }, { required: ['image_base64'] }] },
      ),
    },
    responses: { 201: { description: 'The presentable avatar', data: avatarResult } },
    errors: ERRORS,
    async handler(ctx) {
      const b = ctx.body;
      if (b.project_id) await currentProject(ctx, b.project_id);
      const studio = studioOf(ctx);
      let input: Buffer;
      if (b.image_base64) input = (await decode(ctx, b.image_base64, 'image_base64')).bytes;
      else {
        if (!(await getImageAsset(ctx.deps.db, userIdOf(ctx), b.image_key!)))
          throw new NotFoundError('Image not found');
        const stored = await studio.storage.read(b.image_key!);
        if (!stored) throw new NotFoundError('Image not found');
        input = stored;
      }
      const limit = studio.input.maxPixels;
      const square = await sharp(input, { limitInputPixels: limit })
        .rotate()
        .resize(b.size, b.size, { fit: 'cover', position: sharp.strategy.attention })
        .png()
        .toBuffer();
      // A background that is not flat (a photo: the local removal refuses an edge of no one colour) is left as it
      // is: only a uniform edge colour is replaced.
      const cut = await removeBackgroundLocal(square, limit).catch((e: unknown) => {
        if (e instanceof ValidationError) return undefined;
        throw e;
      });
      const cleaned = !!cut && cut.removed > 0.02 && cut.removed < 0.8;
      const out = await sharp(cleaned ? cut!.bytes : square)
        .flatten({ background: b.background })
        .normalise({ lower: 1, upper: 99 })
        .png()
        .toBuffer();
      const s = await storeAndRecord(ctx, out, 'png', {
        width: b.size,
        height: b.size,
        operation: 'podcast.avatar_presentable',
        provider: 'local',
        model: 'sharp-attention',
      });
      const project = await attach(ctx, b, s.key, 'make_presentable');
      return {
        status: 201,
        data: {
          image_key: s.key,
          url: urlOf(ctx, 'images', s.key),
          width: b.size,
          height: b.size,
          operation: 'make_presentable',
          provider: 'local',
          project_id: project,
          details: {
            crop: 'sharp attention strategy',
            background_replaced: cleaned,
            background_found: cut?.background ?? null,
            removed_fraction: cut ? Math.round(cut.removed * 1000) / 1000 : 0,
          },
        },
      };
    },
  }),

  defineRoute<{
    prompt?: string;
    name?: string;
    style?: string;
    provider?: string;
    project_id?: string;
    speaker?: string;
  }>({
    method: 'post',
    path: `${PREFIX}/avatar/generate`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Generate an avatar (image studio provider)',
    description:
      "A square portrait through the image studio's generation (its configured vendor, else the offline renderer `local`).",
    request: {
      body: withRequired(
        {
          prompt: str(2000),
          name: str(80),
          style: str(100),
          provider: { enum: ['auto', 'local', 'vendor_a', 'vendor_c', 'vendor_d', 'vendor_e'], default: 'auto' },
          ...common,
        },
        [],
        { anyOf: [{ required: ['prompt'] }, { required: ['name'] }] },
      ),
    },
    responses: { 201: { description: 'The avatar', data: avatarResult } },
    errors: { ...ERRORS, 502: 'The image vendor failed' },
    async handler(ctx) {
      const b = ctx.body;
      if (b.project_id) await currentProject(ctx, b.project_id);
      const prompt =
        b.prompt?.trim() ||
        `Friendly podcast host portrait of ${b.name}, ${b.style ?? 'studio lighting, neutral background'}`;
      const img = await generatePicture(ctx, { prompt, provider: b.provider, size: { width: 1024, height: 1024 } });
      const project = await attach(ctx, b, img.image_key, 'generate');
      return {
        status: 201,
        data: {
          image_key: img.image_key,
          url: urlOf(ctx, 'images', img.image_key),
          width: img.width,
          height: img.height,
          operation: 'generate',
          provider: img.provider,
          project_id: project,
        },
      };
    },
  }),
];
