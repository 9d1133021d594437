/**
 * Scene backgrounds, rendered locally with sharp (libvips, prebuilt): a
 * diagonal two-colour gradient or a solid colour. This is what the video
 * studio draws until an image studio supplies pictures; render results say
 * so (`visuals: "local_gradient"`). Images are made 20 % larger than the frame
 * so the Ken Burns zoom never shows an edge.
 */
import sharp from 'sharp';
import type { SceneVisual } from '../../domain/video/types';

/** Oversize factor of a background relative to the frame. */
export const BACKGROUND_SCALE = 1.2;

const hex = (c: string) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : '#000000');

export async function renderBackground(visual: SceneVisual, width: number, height: number, out: string): Promise<void> {
  const w = Math.ceil((width * BACKGROUND_SCALE) / 2) * 2;
  const h = Math.ceil((height * BACKGROUND_SCALE) / 2) * 2;
  const [a, b] = [hex(visual.colors[0] ?? '#000000'), hex(visual.colors[1] ?? visual.colors[0] ?? '#000000')];
  const fill =
    visual.kind === 'solid'
      ? `<rect width="100%" height="100%" fill="${a}"/>`
      : `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/>` +
        `<stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${fill}</svg>`;
  await sharp(Buffer.from(svg)).flatten({ background: a }).png({ compressionLevel: 3 }).toFile(out);
}
