/**
 * socialnet ad copy: the character limits of each `ad_format`, in one table
 * with the date it was checked. The figures are the platform's *recommended*
 * lengths (what shows without truncation on mobile placements) as the
 * platform's ads guide publishes them; the fields' hard maxima are far longer
 * and would let text be cut off in the feed, so the writer holds every
 * variant to these. A field the format does not show (`description` of
 * stories and reels) is not written (limit 0).
 */

/** When the table was last checked against the platform's ads guide. */
export const AD_LIMITS_CHECKED = '2026-11-23';
export const AD_LIMITS_SOURCE = 'socialnet ads guide, recommended character counts per placement (checked 2026-11-23)';

export const AD_FORMATS = ['single_image', 'video', 'carousel', 'collection', 'stories', 'reels'] as const;
export type AdFormat = (typeof AD_FORMATS)[number];

export interface AdFieldLimits {
  primary_text: number;
  headline: number;
  /** 0: the format shows no description. */
  description: number;
  /** Variants the writer returns for this format. */
  variants: number;
}

export const AD_FORMAT_LIMITS: Record<AdFormat, AdFieldLimits> = {
  single_image: { primary_text: 125, headline: 40, description: 30, variants: 3 },
  video: { primary_text: 125, headline: 40, description: 30, variants: 3 },
  // Per card: headline 32, description 18.
  carousel: { primary_text: 125, headline: 32, description: 18, variants: 3 },
  collection: { primary_text: 125, headline: 40, description: 0, variants: 3 },
  stories: { primary_text: 125, headline: 40, description: 0, variants: 3 },
  reels: { primary_text: 72, headline: 10, description: 0, variants: 3 },
};

export const DEFAULT_AD_FORMAT: AdFormat = 'single_image';

/** Call-to-action buttons the platform offers (the `call_to_action` of a variant is one of these). */
export const AD_CTA_BUTTONS = [
  'Learn More',
  'Shop Now',
  'Sign Up',
  'Subscribe',
  'Contact Us',
  'Get Offer',
  'Book Now',
  'Download',
  'Apply Now',
  'Get Quote',
  'Send Message',
  'Watch More',
] as const;

/** The button that fits a campaign objective (free text, matched by keyword). */
export function ctaButtonFor(objective: string): (typeof AD_CTA_BUTTONS)[number] {
  const o = objective.toLowerCase();
  if (/sale|purchase|conversion|shop|store|catalog/.test(o)) return 'Shop Now';
  if (/lead|sign.?up|registration|trial/.test(o)) return 'Sign Up';
  if (/subscri|newsletter/.test(o)) return 'Subscribe';
  if (/book|appointment|reservation/.test(o)) return 'Book Now';
  if (/install|download|app/.test(o)) return 'Download';
  if (/message|conversation|chat/.test(o)) return 'Send Message';
  if (/video|view/.test(o)) return 'Watch More';
  if (/quote/.test(o)) return 'Get Quote';
  if (/offer|discount|promo/.test(o)) return 'Get Offer';
  return 'Learn More';
}
