/**
 * Social platforms of the spec and the limits a post for each is written to.
 * Character limits are the platforms' published limits for a post's text
 * (counted here in Unicode code points; a platform that counts links or
 * emoji differently may count a few characters more or less). The hashtag
 * counts are our choice: the number each platform's own guidance calls
 * useful, not a hard limit.
 */
export const PLATFORMS = {
  /** Professional network: post text up to 3,000 characters. */
  profnet: { max_characters: 3000, max_hashtags: 5 },
  /** General social network: post text up to 63,206 characters. */
  socialnet: { max_characters: 63206, max_hashtags: 3 },
  /** Photo network: captions up to 2,200 characters, up to 30 hashtags (we add at most 10). */
  photonet: { max_characters: 2200, max_hashtags: 10 },
  /** Short-post network: 280 characters. */
  microblog: { max_characters: 280, max_hashtags: 2 },
  /** Video platform: descriptions up to 5,000 characters. */
  videonet: { max_characters: 5000, max_hashtags: 3 },
  /** Advertising platform: primary text, 125 characters before it is truncated in the feed. */
  adnet_ads: { max_characters: 125, max_hashtags: 0 },
} as const;

export type Platform = keyof typeof PLATFORMS;
export const PLATFORM_NAMES = Object.keys(PLATFORMS) as Platform[];
