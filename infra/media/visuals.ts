/**
 * Scene stills, made 20 % larger than the frame so the Ken Burns zoom never
 * shows an edge:
 * - `image`: the image studio's offline `local` renderer, through its module
 *   API (domain/image/procedural.ts composes an SVG from the prompt — here the
 *   scene's visual_description — and infra/image/raster.ts rasterises it with
 *   sharp). Deterministic: the same description and size give the same still.
 * - `gradient` / `solid`: a plain background drawn with sharp (also used by
 *   the podcast maker when a scene has no picture).
 * What was drawn is returned (`rendered_as`, the renderer's motifs) so that
 * render results say what each scene really shows.
 */
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { hash32, renderSvg } from '../../domain/image/procedural';
import { RENDERED_AS, SceneStill, SceneVisual } from '../../domain/video/types';
import { renderSvgToPng } from '../image/raster';

/** Oversize factor of a background relative to the frame. */
export const BACKGROUND_SCALE = 1.2;

const hex = (c: string) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : '#000000');
const oversize = (side: number) => Math.ceil((side * BACKGROUND_SCALE) / 2) * 2;

/** A plain background: a diagonal two-colour gradient or a solid colour. */
export async function renderBackground(
  visual: Pick<SceneVisual, 'colors'> & Partial<Pick<SceneVisual, 'motion'>> & { kind: 'gradient' | 'solid' },
  width: number,
  height: number,
  out: string,
): Promise<void> {
  const w = oversize(width);
  const h = oversize(height);
  const [a, b] = [hex(visual.colors[0] ?? '#000000'), hex(visual.colors[1] ?? visual.colors[0] ?? '#000000')];
  const fill =
    visual.kind === 'solid'
      ? `<rect width="100%" height="100%" fill="${a}"/>`
      : `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/>` +
        `<stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${fill}</svg>`;
  await sharp(Buffer.from(svg)).flatten({ background: a }).png({ compressionLevel: 3 }).toFile(out);
}

/** What a scene's still really is. */
export type StillInfo = SceneStill;

/** The prompt of an `image` still when a scene has no description. */
const FALLBACK_PROMPT = 'abstract illustration';

/** A scene's still (PNG at frame size × BACKGROUND_SCALE) written to `out`; says what was drawn. */
export async function renderSceneStill(o: {
  visual: SceneVisual;
  description?: string;
  width: number;
  height: number;
  out: string;
}): Promise<StillInfo> {
  if (o.visual.kind !== 'image') {
    await renderBackground({ kind: o.visual.kind, colors: o.visual.colors }, o.width, o.height, o.out);
    return { rendered_as: RENDERED_AS[o.visual.kind] };
  }
  const prompt = o.description?.trim() || FALLBACK_PROMPT;
  // Seeded by the description itself: the same scene text always gives the same still.
  const r = renderSvg({
    prompt,
    width: oversize(o.width),
    height: oversize(o.height),
    seed: hash32(prompt),
    quality: 'standard',
  });
  const png = await renderSvgToPng(r.svg);
  await writeFile(o.out, png.bytes);
  return { rendered_as: RENDERED_AS.image, motifs: r.motifs };
}
