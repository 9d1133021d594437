/**
 * Platform formats of the image studio's social optimiser (Document 2
 * "Platform format", "Platform specs"). Pixel sizes, ratios, safe zones, file
 * types and size limits follow each platform's published guidance as of
 * 2025-06 (docs/image-studio.md has the table, the sources and where a figure
 * is our choice). Neutral tokens: profnet = LinkedIn, socialnet = Facebook,
 * photonet = Instagram, microblog = X/Twitter, videonet = YouTube,
 * adnet_ads = Google display ads.
 *
 * A safe zone is the fraction of each edge that the platform's interface may
 * cover or crop (profile picture, buttons, captions, the mobile crop): keep
 * text and faces out of it. Circular crops (profile photos) use the margin of
 * the inscribed square of the circle, 1 - 1/sqrt(2) over 2 = 0.146.
 */

export const PLATFORMS = ['profnet', 'socialnet', 'photonet', 'microblog', 'videonet', 'adnet_ads'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface SafeZone {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface PlatformFormat {
  name: string;
  width: number;
  height: number;
  /** `W:H` in lowest terms, or a decimal ratio (`1.91:1`) as the platform states it. */
  ratio: string;
  safe_zone: SafeZone;
  /** Preferred output type for this format (`jpg` or `png`); the request's output_format wins. */
  file_type: 'jpg' | 'png';
  max_size_mb: number;
}

export interface PlatformSpecs {
  name: string;
  formats: { name: string; ratio: string; size: string }[];
  file_types: string[];
  max_file_size: string;
}

const NONE: SafeZone = { top: 0, bottom: 0, left: 0, right: 0 };
const CIRCLE: SafeZone = { top: 0.146, bottom: 0.146, left: 0.146, right: 0.146 };
/** Meta's guidance for 9:16 stories: keep ~14 % at the top and ~20 % at the bottom free, 6 % at the sides. */
const STORY: SafeZone = { top: 0.14, bottom: 0.2, left: 0.06, right: 0.06 };
/** Reels: the caption and buttons cover the bottom third. */
const REEL: SafeZone = { top: 0.14, bottom: 0.35, left: 0.06, right: 0.06 };

const f = (
  name: string,
  width: number,
  height: number,
  ratio: string,
  file_type: 'jpg' | 'png',
  max_size_mb: number,
  safe_zone: SafeZone = NONE,
): PlatformFormat => ({ name, width, height, ratio, safe_zone, file_type, max_size_mb });

export const PLATFORM_FORMATS: Record<Platform, PlatformFormat[]> = {
  profnet: [
    f('feed_landscape', 1200, 627, '1.91:1', 'jpg', 5),
    f('feed_square', 1200, 1200, '1:1', 'jpg', 5),
    f('feed_portrait', 1080, 1350, '4:5', 'jpg', 5),
    f('article_cover', 1280, 720, '16:9', 'jpg', 5),
    // The profile photo covers the lower left on desktop; mobile centres it lower.
    f('profile_background', 1584, 396, '4:1', 'jpg', 8, { top: 0, bottom: 0.35, left: 0.25, right: 0 }),
    f('company_cover', 1128, 191, '5.91:1', 'png', 3, { top: 0, bottom: 0.3, left: 0.15, right: 0 }),
    f('profile_photo', 400, 400, '1:1', 'png', 8, CIRCLE),
  ],
  socialnet: [
    f('feed_landscape', 1200, 630, '1.91:1', 'jpg', 30),
    f('feed_square', 1080, 1080, '1:1', 'jpg', 30),
    f('feed_portrait', 1080, 1350, '4:5', 'jpg', 30),
    f('story', 1080, 1920, '9:16', 'jpg', 30, STORY),
    // Mobile shows the middle 640 of 820 desktop pixels: 11 % of each side may be cut.
    f('cover', 1640, 624, '2.63:1', 'jpg', 30, { top: 0, bottom: 0, left: 0.11, right: 0.11 }),
    f('event_cover', 1920, 1005, '1.91:1', 'jpg', 30),
    f('profile_photo', 320, 320, '1:1', 'png', 30, CIRCLE),
  ],
  photonet: [
    f('feed_square', 1080, 1080, '1:1', 'jpg', 8),
    f('feed_portrait', 1080, 1350, '4:5', 'jpg', 8),
    f('feed_landscape', 1080, 566, '1.91:1', 'jpg', 8),
    // The profile grid shows posts at 3:4 since 2025.
    f('grid_portrait', 1080, 1440, '3:4', 'jpg', 8),
    f('story', 1080, 1920, '9:16', 'jpg', 8, STORY),
    f('reel_cover', 1080, 1920, '9:16', 'jpg', 8, REEL),
    f('profile_photo', 320, 320, '1:1', 'png', 8, CIRCLE),
  ],
  microblog: [
    f('post_landscape', 1600, 900, '16:9', 'jpg', 5),
    f('post_square', 1080, 1080, '1:1', 'jpg', 5),
    f('post_portrait', 1080, 1350, '4:5', 'jpg', 5),
    f('card_image', 1200, 628, '1.91:1', 'jpg', 5),
    // Headers are cropped top and bottom on some screens; the avatar covers the lower left.
    f('header', 1500, 500, '3:1', 'jpg', 5, { top: 0.12, bottom: 0.2, left: 0.2, right: 0 }),
    f('profile_photo', 400, 400, '1:1', 'png', 2, CIRCLE),
  ],
  videonet: [
    // The duration stamp covers the lower right corner of a thumbnail.
    f('thumbnail', 1280, 720, '16:9', 'jpg', 2, { top: 0, bottom: 0.12, left: 0, right: 0.18 }),
    // Only the central 1546 x 423 shows on every device.
    f('channel_banner', 2560, 1440, '16:9', 'jpg', 6, { top: 0.353, bottom: 0.353, left: 0.198, right: 0.198 }),
    f('shorts_cover', 1080, 1920, '9:16', 'jpg', 2, REEL),
    f('community_post', 1080, 1080, '1:1', 'jpg', 16),
    f('profile_photo', 800, 800, '1:1', 'png', 4, CIRCLE),
  ],
  adnet_ads: [
    f('landscape', 1200, 628, '1.91:1', 'jpg', 5),
    f('square', 1200, 1200, '1:1', 'jpg', 5),
    f('portrait', 960, 1200, '4:5', 'jpg', 5),
    f('logo_square', 1200, 1200, '1:1', 'png', 5),
    f('logo_landscape', 1200, 300, '4:1', 'png', 5),
    // Uploaded display ads: 150 KB each.
    f('medium_rectangle', 300, 250, '6:5', 'jpg', 0.15),
    f('leaderboard', 728, 90, '8.09:1', 'jpg', 0.15),
    f('half_page', 300, 600, '1:2', 'jpg', 0.15),
    f('wide_skyscraper', 160, 600, '4:15', 'jpg', 0.15),
    f('mobile_banner', 320, 50, '32:5', 'jpg', 0.15),
  ],
};

const FILE_TYPES: Record<Platform, string[]> = {
  profnet: ['jpg', 'png', 'gif'],
  socialnet: ['jpg', 'png', 'gif', 'webp'],
  photonet: ['jpg', 'png'],
  microblog: ['jpg', 'png', 'gif', 'webp'],
  videonet: ['jpg', 'png', 'gif'],
  adnet_ads: ['jpg', 'png', 'gif'],
};

export const isPlatform = (p: string): p is Platform => (PLATFORMS as readonly string[]).includes(p);

/** The formats of a platform (a copy). */
export const formatsOf = (p: Platform): PlatformFormat[] =>
  PLATFORM_FORMATS[p].map((x) => ({ ...x, safe_zone: { ...x.safe_zone } }));

/** A platform's format by name, or undefined. */
export const findFormat = (p: Platform, name: string): PlatformFormat | undefined =>
  formatsOf(p).find((x) => x.name === name);

const mb = (n: number) => (n < 1 ? `${Math.round(n * 1000)}KB` : `${n}MB`);

/** Platform specs (Document 2): formats as {name, ratio, size}, accepted file types, largest file. */
export function platformSpecs(p: Platform): PlatformSpecs {
  const formats = PLATFORM_FORMATS[p];
  const largest = Math.max(...formats.map((x) => x.max_size_mb));
  const smallest = Math.min(...formats.map((x) => x.max_size_mb));
  return {
    name: p,
    formats: formats.map((x) => ({ name: x.name, ratio: x.ratio, size: `${x.width}x${x.height}` })),
    file_types: [...FILE_TYPES[p]],
    max_file_size: smallest === largest ? mb(largest) : `${mb(largest)} (${mb(smallest)} for some formats)`,
  };
}
