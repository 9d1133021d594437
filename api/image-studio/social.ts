/**
 * POST /api/image-studio/social/optimize: one input image to the formats of
 * each requested platform (domain/image/formats.ts), exact pixel sizes, with
 * smart (attention or focal point), center or fit (letterbox) cropping, an
 * optional safe-zone overlay, PNG or JPEG under each format's size limit
 * (quality lowered as needed). Pure local work on sharp's thread pool, bounded
 * by the input limits (at most 42 outputs of at most 2560x1440), so it runs in
 * the API (docs/image-studio.md "Where work runs"); four formats at a time.
 */
import { findFormat, formatsOf, Platform, PLATFORMS, PlatformFormat } from '../../domain/image/formats';
import { renderFormat, SizeLimitError, CropMode } from '../../infra/image/raster';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, bool, int, str, withRequired } from '../kernel/schema';
import { decode, imageUrl, invalid, PREFIX, storeAndRecord, studioOf, tags } from './common';
import { imageField, safeZoneSchema, unit } from './schemas';

interface SocialBody {
  image_base64: string;
  platforms: Platform[];
  format_names?: Record<string, string | string[]>;
  show_safe_zones: boolean;
  crop_mode: CropMode;
  focal_point?: { x: number; y: number };
  output_format: 'png' | 'jpg';
}

/** Formats processed at the same time per request (each holds a decoded copy of the input). */
const PARALLEL = 4;
/** Platform size limits are in decimal megabytes. */
const MB = 1_000_000;

const formatName = { type: 'string', minLength: 1, maxLength: 50 };

/** The formats a request asks for, in platform order; unknown names are 400 naming the valid ones. */
export function requestedFormats(b: Pick<SocialBody, 'platforms' | 'format_names'>): [Platform, PlatformFormat][] {
  for (const k of Object.keys(b.format_names ?? {}))
    if (!b.platforms.includes(k as Platform))
      throw invalid(`format_names.${k}`, `${k} is not one of the requested platforms`);
  const out: [Platform, PlatformFormat][] = [];
  for (const p of b.platforms) {
    const asked = b.format_names?.[p];
    const names = asked === undefined ? undefined : Array.isArray(asked) ? asked : [asked];
    if (!names) {
      for (const f of formatsOf(p)) out.push([p, f]);
      continue;
    }
    for (const n of [...new Set(names)]) {
      const f = findFormat(p, n);
      if (!f)
        throw invalid(
          `format_names.${p}`,
          `${p} has no format "${n}"; formats: ${formatsOf(p)
            .map((x) => x.name)
            .join(', ')}`,
        );
      out.push([p, f]);
    }
  }
  return out;
}

/** Runs `fn` over `items`, at most `n` at a time, keeping order. */
async function mapLimit<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

export const imageSocialRoutes: RouteDef[] = [
  defineRoute<SocialBody>({
    method: 'post',
    path: `${PREFIX}/social/optimize`,
    auth: 'user',
    tags,
    summary: 'Resize and crop one image to the formats of social platforms',
    description:
      "format_names maps a platform to a format name (or a list of names); a platform without an entry gets all its formats. crop_mode: smart (focal_point when given, else libvips attention), center, fit (whole image, letterboxed in its mean colour). Outputs are at most the format's max_size_mb (decimal MB): JPEG quality is lowered step by step, PNG quantised to a palette; 400 when even that is too large.",
    request: {
      body: withRequired(
        {
          image_base64: imageField('the image: base64 or data URL'),
          platforms: {
            type: 'array',
            items: { enum: [...PLATFORMS] },
            minItems: 1,
            maxItems: PLATFORMS.length,
            uniqueItems: true,
          },
          format_names: {
            type: 'object',
            maxProperties: PLATFORMS.length,
            additionalProperties: {
              oneOf: [formatName, { type: 'array', items: formatName, minItems: 1, maxItems: 20 }],
            },
          },
          show_safe_zones: { ...bool, default: false },
          crop_mode: { enum: ['smart', 'center', 'fit'], default: 'smart' },
          focal_point: allRequired({ x: unit, y: unit }),
          output_format: { enum: ['png', 'jpg'], default: 'png' },
        },
        ['image_base64', 'platforms'],
      ),
    },
    responses: {
      200: {
        description: 'One image per platform format',
        data: withRequired(
          {
            success: bool,
            results: {
              type: 'array',
              items: withRequired(
                {
                  platform: str(),
                  format: str(),
                  image_base64: str(),
                  image_url: str(),
                  width: int,
                  height: int,
                  file_type: str(),
                  bytes: int,
                  quality: { type: ['integer', 'null'] },
                  safe_zone: safeZoneSchema,
                },
                ['platform', 'format', 'image_base64', 'width', 'height'],
              ),
            },
            total_optimized: int,
          },
          ['success', 'results', 'total_optimized'],
        ),
      },
    },
    errors: { 503: 'image storage unavailable' },
    handler: async (ctx) => {
      const b = ctx.body;
      const studio = studioOf(ctx);
      const jobs = requestedFormats(b);
      const src = await decode(ctx, b.image_base64, 'image_base64');
      const results = await mapLimit(jobs, PARALLEL, async ([platform, f]) => {
        let enc;
        try {
          enc = await renderFormat(
            src.bytes,
            src,
            f,
            {
              crop: b.crop_mode,
              focal: b.crop_mode === 'smart' ? b.focal_point : undefined,
              showSafeZones: b.show_safe_zones,
              limitInputPixels: studio.input.maxPixels,
            },
            b.output_format,
            Math.floor(f.max_size_mb * MB),
          );
        } catch (e) {
          if (e instanceof SizeLimitError)
            throw invalid(
              'output_format',
              `${platform} ${f.name}: ${e.message}${b.output_format === 'png' ? '; try jpg' : ''}`,
            );
          throw e;
        }
        const s = await storeAndRecord(ctx, enc.bytes, b.output_format, {
          width: enc.width,
          height: enc.height,
          operation: `social.${platform}.${f.name}`,
          provider: 'local',
          model: `sharp-${b.crop_mode}`,
        });
        return {
          platform,
          format: f.name,
          image_base64: enc.bytes.toString('base64'),
          image_url: imageUrl(ctx, s.key),
          width: enc.width,
          height: enc.height,
          file_type: b.output_format,
          bytes: enc.bytes.length,
          quality: enc.quality ?? null,
          safe_zone: f.safe_zone,
        };
      });
      return { data: { success: true, results, total_optimized: results.length } };
    },
  }),
];
