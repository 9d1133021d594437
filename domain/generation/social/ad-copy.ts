/**
 * Offline ad copy: one variant per angle (benefit, question, differentiator),
 * each written from the product, the benefits and the audience the request
 * gives, and fitted to the format's limits by choosing the longest candidate
 * phrasing that fits before any shortening is needed. The product is a label
 * ("Project management app for freelance designers.") or follows "Why" or a
 * colon, never the subject of a template verb ("… is made for you" breaks on
 * plurals); the client's words keep their capitals (social-compose.ts `lowerFirst`).
 */
import { AD_FORMAT_LIMITS, AdFormat, ctaButtonFor } from '../../writers/ad-formats';
import type { AdCopyDraft, AdVariantDraft } from '../../writers/drafts';
import type { AdCopyBrief } from '../../writers/types';
import { charCount } from '../../writers/text-limits';
import { capitalize } from '../text';
import { pointKind } from '../phrases';
import { lowerFirst } from '../social-compose';
import { Kit } from './kit';

/** The first candidate that fits `max` (else the shortest one; the finisher shortens it). */
function fitting(candidates: string[], max: number): string {
  const clean = candidates.map((c) => c.trim()).filter(Boolean);
  return clean.find((c) => charCount(c) <= max) ?? [...clean].sort((a, b) => charCount(a) - charCount(b))[0] ?? '';
}

const stop = (s: string) => s.replace(/[.!?]+$/, '');

/** "Want to plan sprints in minutes?" for an imperative benefit, "Looking for free delivery?" otherwise. */
const askFor = (benefit: string) =>
  pointKind(benefit) === 'imperative' ? `Want to ${lowerFirst(benefit)}?` : `Looking for ${lowerFirst(benefit)}?`;

export function writeAdCopy(k: Kit, b: AdCopyBrief): AdCopyDraft {
  const l = AD_FORMAT_LIMITS[b.adFormat as AdFormat];
  const given = b.benefits.map(stop).filter((x) => /[\p{L}\p{N}]/u.test(x));
  // Without benefits the ad says what the product is and whom it is for, and nothing it was not told.
  const benefits = given.length ? given : [`${b.product}${b.audience ? ` for ${b.audience}` : ''}`];
  const forWho = b.audience ? ` for ${b.audience}` : '';
  const urgent = /high|intense|crowded|strong/i.test(b.competitionLevel);
  const cta = ctaButtonFor(b.objective);
  const angles: Array<Omit<AdVariantDraft, 'call_to_action'>> = [
    {
      angle: 'benefit',
      primary_text: fitting(
        [
          `${capitalize(benefits[0])}. ${capitalize(b.product)}${forWho}. ${benefits[1] ? `${capitalize(benefits[1])}.` : ''}`,
          `${capitalize(benefits[0])}. ${capitalize(b.product)}${forWho}.`,
          `${capitalize(benefits[0])}.`,
        ],
        l.primary_text,
      ),
      headline: fitting([capitalize(benefits[0]), capitalize(b.product)], l.headline),
      description: fitting([capitalize(benefits[1] ?? b.product), capitalize(b.product)], l.description),
    },
    {
      angle: 'question',
      primary_text: fitting(
        [
          `${askFor(benefits[0])} ${capitalize(b.product)}${forWho}.`,
          `${askFor(benefits[0])} ${capitalize(b.product)}.`,
          askFor(benefits[0]),
        ],
        l.primary_text,
      ),
      headline: fitting([`${capitalize(b.product)}${forWho}`, capitalize(b.product)], l.headline),
      description: fitting([capitalize(benefits[2] ?? benefits[0])], l.description),
    },
    {
      angle: urgent ? 'differentiator' : 'simplicity',
      primary_text: fitting(
        [
          urgent
            ? `Why ${b.product}? ${benefits.map(capitalize).join('. ')}.`
            : `${capitalize(b.product)}: ${benefits.map((p) => lowerFirst(p)).join(', ')}.`,
          `${capitalize(b.product)}: ${lowerFirst(benefits[0])}.`,
        ],
        l.primary_text,
      ),
      headline: fitting([capitalize(benefits[benefits.length - 1]), capitalize(b.product)], l.headline),
      description: fitting([cta, capitalize(b.product)], l.description),
    },
  ];
  return {
    variants: angles.slice(0, l.variants).map((v) => ({
      ...v,
      ...(l.description ? {} : { description: undefined }),
      call_to_action: cta,
    })),
  };
}
