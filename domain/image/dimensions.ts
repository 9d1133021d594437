/**
 * Output dimensions of a generation: explicit width/height, a `W:H` aspect
 * ratio, a template's size, or the quality's default, always inside the
 * provider's largest size and rounded to the provider's pixel multiple.
 */

export const QUALITIES = ['draft', 'standard', 'premium'] as const;
export type Quality = (typeof QUALITIES)[number];

/** Long edge (px) of an image when the request names no size: what each quality costs in pixels. */
export const QUALITY_LONG_EDGE: Record<Quality, number> = { draft: 768, standard: 1024, premium: 1536 };

/** The form of `aspect_ratio`: two positive numbers (up to 3 decimals) separated by a colon. */
export const ASPECT_RATIO_PATTERN = '^[0-9]{1,5}(\\.[0-9]{1,3})?:[0-9]{1,5}(\\.[0-9]{1,3})?$';

/** Most extreme ratio accepted (1:10 … 10:1): beyond it no provider renders a usable image. */
export const MAX_RATIO = 10;
export const MIN_SIDE = 64;

export class DimensionError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'DimensionError';
  }
}

/** Width / height of a `W:H` text; DimensionError when zero or too extreme. */
export function parseAspectRatio(text: string): number {
  const m = new RegExp(ASPECT_RATIO_PATTERN).exec(text);
  if (!m) throw new DimensionError('aspect_ratio', 'aspect_ratio must have the form W:H, e.g. 16:9');
  const [w, h] = text.split(':').map(Number);
  if (!(w > 0 && h > 0)) throw new DimensionError('aspect_ratio', 'aspect_ratio sides must be greater than 0');
  const r = w / h;
  if (r > MAX_RATIO || r < 1 / MAX_RATIO)
    throw new DimensionError('aspect_ratio', `aspect_ratio must lie between 1:${MAX_RATIO} and ${MAX_RATIO}:1`);
  return r;
}

export interface Limits {
  maxWidth: number;
  maxHeight: number;
  /** Sides are rounded to a multiple of this (vendors want 8, 32 or 64). */
  multiple: number;
}

export interface DimensionRequest {
  width?: number;
  height?: number;
  aspect_ratio?: string;
  quality: Quality;
  /** A template's size, used when the request names none. */
  template?: { width: number; height: number };
}

const round = (v: number, m: number) => Math.max(m, Math.round(v / m) * m);

/** The width and height to render, inside the provider's limits. */
export function resolveDimensions(req: DimensionRequest, lim: Limits): { width: number; height: number } {
  const ratio = req.aspect_ratio ? parseAspectRatio(req.aspect_ratio) : undefined;
  let w: number;
  let h: number;
  if (req.width && req.height) {
    if (ratio !== undefined && Math.abs(req.width / req.height - ratio) > 0.02 * ratio)
      throw new DimensionError('aspect_ratio', 'aspect_ratio contradicts width and height; send one or the other');
    [w, h] = [req.width, req.height];
  } else if (req.width || req.height) {
    const r = ratio ?? (req.template ? req.template.width / req.template.height : 1);
    [w, h] = req.width ? [req.width, req.width / r] : [req.height! * r, req.height!];
  } else if (ratio !== undefined) {
    const long = QUALITY_LONG_EDGE[req.quality];
    [w, h] = ratio >= 1 ? [long, long / ratio] : [long * ratio, long];
  } else if (req.template) {
    [w, h] = [req.template.width, req.template.height];
  } else {
    [w, h] = [QUALITY_LONG_EDGE[req.quality], QUALITY_LONG_EDGE[req.quality]];
  }
  if (w / h > MAX_RATIO || h / w > MAX_RATIO)
    throw new DimensionError('width', `width:height must lie between 1:${MAX_RATIO} and ${MAX_RATIO}:1`);
  // Scale down (never up) into the provider's box, keeping the ratio.
  const scale = Math.min(1, lim.maxWidth / w, lim.maxHeight / h);
  const m = lim.multiple;
  const width = Math.min(Math.floor(lim.maxWidth / m) * m, round(w * scale, m));
  const height = Math.min(Math.floor(lim.maxHeight / m) * m, round(h * scale, m));
  return { width: Math.max(MIN_SIDE, width), height: Math.max(MIN_SIDE, height) };
}

/** The ratio among `choices` (`W:H` texts) closest to width/height, by log distance. */
export function nearestRatio(width: number, height: number, choices: readonly string[]): string {
  const target = Math.log(width / height);
  let best = choices[0];
  let d = Infinity;
  for (const c of choices) {
    const [a, b] = c.split(':').map(Number);
    const e = Math.abs(Math.log(a / b) - target);
    if (e < d) [best, d] = [c, e];
  }
  return best;
}
