/**
 * Platform limits of every format the writers produce, in one table with the
 * date it was checked. Two kinds of number live here and are told apart:
 *
 * - `published`: a hard limit the platform states (a post longer than it is
 *   refused or cut by the platform) — e.g. 3,000 characters for a profnet
 *   post, 63,206 for a socialnet post, 90 s for a socialnet reel.
 * - house limits and optimum bands (`max_hashtags`, `max_emoji`,
 *   `max_line_breaks`, `optimal_*`): the writers' editorial rules, taken
 *   from the platforms' own guidance where it exists (profnet recommends a
 *   few hashtags; socialnet truncates feed text after a few lines). They
 *   are the engagement model's assumptions, not measured on user data.
 *
 * Generated text is held to the `max_*` values on output
 * (domain/writers/text-limits.ts): longer text is shortened at a sentence
 * boundary, surplus hashtags and emoji are dropped, surplus line breaks are
 * joined. Lengths are counted in Unicode code points.
 */
import type { WriterKind, WriterPlatform } from './types';

/** When the published figures below were last checked against the platforms' documentation. */
export const PLATFORM_LIMITS_CHECKED = '2026-11-23';

export interface FormatLimits {
  /** Longest main text (code points). */
  max_characters: number;
  /** Whether max_characters is the platform's published limit (else a house limit). */
  published: boolean;
  max_hashtags: number;
  max_emoji: number;
  /** Most line breaks in the main text. */
  max_line_breaks: number;
  /** Length band (code points) the engagement model treats as best. */
  optimal_characters: [number, number];
  optimal_hashtags: [number, number];
  optimal_emoji: [number, number];
  /** Scene-plan formats: allowed total duration (seconds). */
  duration_seconds?: [number, number];
  /** Slide formats: allowed slide count. */
  slides?: [number, number];
  /** Longest title of a slide, frame, article or event (code points). */
  max_title_characters?: number;
  /** Longest body of one slide or frame (code points). */
  max_item_characters?: number;
}

export type FormatKey = `${WriterPlatform}:${WriterKind}`;

const post = (o: Partial<FormatLimits> & Pick<FormatLimits, 'max_characters' | 'published'>): FormatLimits => ({
  max_hashtags: 5,
  max_emoji: 5,
  max_line_breaks: 30,
  optimal_characters: [80, 1500],
  optimal_hashtags: [1, 3],
  optimal_emoji: [0, 3],
  ...o,
});

export const FORMAT_LIMITS: Partial<Record<FormatKey, FormatLimits>> = {
  // profnet: posts up to 3,000 characters (published); the feed shows about 210 before "see more".
  'profnet:post': post({
    max_characters: 3000,
    published: true,
    max_line_breaks: 40,
    optimal_characters: [700, 1600],
    optimal_hashtags: [3, 5],
    optimal_emoji: [0, 3],
  }),
  // profnet articles: body up to 110,000 characters, headline up to 150 (published).
  'profnet:article': post({
    max_characters: 110000,
    published: true,
    max_line_breaks: 2000,
    max_emoji: 3,
    optimal_characters: [5000, 15000],
    optimal_hashtags: [3, 5],
    optimal_emoji: [0, 1],
    max_title_characters: 150,
  }),
  // profnet native video: 3 s to 10 min (published); the caption follows the post limit.
  'profnet:video_post': post({
    max_characters: 3000,
    published: true,
    optimal_characters: [150, 600],
    optimal_hashtags: [3, 5],
    duration_seconds: [3, 600],
  }),
  // profnet document (carousel) posts: caption as a post; slides are a house limit (the platform allows far more pages).
  'profnet:carousel': post({
    max_characters: 3000,
    published: true,
    optimal_characters: [150, 800],
    optimal_hashtags: [3, 5],
    slides: [3, 20],
    max_title_characters: 60,
    max_item_characters: 280,
  }),
  // socialnet: posts up to 63,206 characters (published); feed text is cut after a few lines, so short posts do best.
  'socialnet:post': post({
    max_characters: 63206,
    published: true,
    max_hashtags: 3,
    optimal_characters: [40, 250],
    optimal_hashtags: [1, 3],
    optimal_emoji: [1, 4],
  }),
  'socialnet:group_post': post({
    max_characters: 63206,
    published: true,
    max_hashtags: 2,
    optimal_characters: [150, 900],
    optimal_hashtags: [0, 1],
    optimal_emoji: [0, 3],
  }),
  // socialnet stories: one frame shows for up to 20 s (published for video; photos 5 s); frame text is a house limit.
  'socialnet:story': post({
    max_characters: 2200,
    published: false,
    max_hashtags: 3,
    optimal_characters: [20, 200],
    optimal_hashtags: [0, 2],
    optimal_emoji: [1, 4],
    duration_seconds: [5, 120],
    max_item_characters: 120,
  }),
  // socialnet reels: 3 to 90 s (published); caption kept to the cross-platform 2,200 characters.
  'socialnet:reel': post({
    max_characters: 2200,
    published: false,
    optimal_characters: [50, 300],
    optimal_hashtags: [3, 5],
    optimal_emoji: [1, 4],
    duration_seconds: [3, 90],
  }),
  // socialnet multi-image posts take up to 10 cards (published).
  'socialnet:carousel': post({
    max_characters: 63206,
    published: true,
    max_hashtags: 3,
    optimal_characters: [40, 400],
    optimal_hashtags: [1, 3],
    optimal_emoji: [1, 4],
    slides: [2, 10],
    max_title_characters: 40,
    max_item_characters: 200,
  }),
  // socialnet events: name up to 64 characters (published); the description is a house limit.
  'socialnet:event': post({
    max_characters: 5000,
    published: false,
    max_hashtags: 3,
    optimal_characters: [300, 1200],
    optimal_hashtags: [1, 3],
    optimal_emoji: [0, 3],
    max_title_characters: 64,
  }),
  // socialnet page "About" short description: 255 characters (published); the request's character_limit may lower it.
  'socialnet:page_about': post({
    max_characters: 255,
    published: true,
    max_hashtags: 0,
    max_emoji: 2,
    max_line_breaks: 4,
    optimal_characters: [120, 255],
    optimal_hashtags: [0, 0],
    optimal_emoji: [0, 1],
  }),
  // socialnet ads: the primary text of the most restrictive placement; each field's limit is in ad-formats.ts.
  'socialnet:ad_copy': post({
    max_characters: 125,
    published: false,
    max_hashtags: 0,
    max_emoji: 2,
    max_line_breaks: 2,
    optimal_characters: [40, 125],
    optimal_hashtags: [0, 0],
    optimal_emoji: [0, 1],
  }),
};

export function formatLimits(platform: WriterPlatform, kind: WriterKind): FormatLimits {
  const l = FORMAT_LIMITS[`${platform}:${kind}`];
  if (!l) throw new Error(`no limits for ${platform}:${kind}`);
  return l;
}

/** Platforms the engagement analysis knows, with the feed-post band each is scored against. */
export const ANALYSIS_PLATFORMS = ['profnet', 'socialnet', 'photonet', 'microblog', 'videonet'] as const;
export type AnalysisPlatform = (typeof ANALYSIS_PLATFORMS)[number];

/** Feed-post bands of the platforms the writers do not write for (engagement analysis only). */
export const OTHER_PLATFORM_POSTS: Record<Exclude<AnalysisPlatform, WriterPlatform>, FormatLimits> = {
  // photonet captions: 2,200 characters and 30 hashtags (published).
  photonet: post({
    max_characters: 2200,
    published: true,
    max_hashtags: 30,
    optimal_characters: [100, 500],
    optimal_hashtags: [3, 8],
    optimal_emoji: [1, 5],
  }),
  // microblog: 280 characters (published, standard accounts).
  microblog: post({
    max_characters: 280,
    published: true,
    max_hashtags: 3,
    optimal_characters: [70, 200],
    optimal_hashtags: [1, 2],
    optimal_emoji: [0, 2],
  }),
  // videonet descriptions: 5,000 characters (published); 15 hashtags at most are honoured.
  videonet: post({
    max_characters: 5000,
    published: true,
    max_hashtags: 15,
    optimal_characters: [200, 1000],
    optimal_hashtags: [2, 5],
    optimal_emoji: [0, 2],
  }),
};

/** The band a text on `platform` (optionally a writer format) is scored against. */
export function analysisLimits(platform: AnalysisPlatform, kind?: WriterKind): FormatLimits {
  if (platform === 'profnet' || platform === 'socialnet')
    return FORMAT_LIMITS[`${platform}:${kind ?? 'post'}`] ?? formatLimits(platform, 'post');
  return OTHER_PLATFORM_POSTS[platform];
}
