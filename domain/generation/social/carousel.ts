/**
 * Offline carousels: a cover (the client's title, else the topic), content
 * slides that each take one focus (the client's, else a phrase of a source
 * sentence about the topic) and the best source sentence about that focus and
 * the topic, and a call-to-action slide. A slide with neither a focus the
 * client gave nor a source sentence about the topic has nothing to say, so it
 * is left out: the carousel is shorter than asked rather than padded, and its
 * coverage (metadata.coverage) says how many content slides were written of
 * those asked and why.
 */
import type { CarouselDraft, SlideDraft } from '../../writers/drafts';
import type { CarouselBrief } from '../../writers/types';
import { coverageOf } from '../compose';
import { titleCase } from '../text';
import { topicPhrase } from '../social-compose';
import { emoji, hashtagsFor, Kit, labelOf } from './kit';

const GENERIC_FOCUS = /^(tips?|examples?|facts?|steps?|points?|ideas?|stats?|statistics)$/i;

export function writeCarousel(k: Kit, b: CarouselBrief): CarouselDraft {
  const contentCount = Math.max(0, b.slides - 2);
  const colours = b.brand.colors.length ? `; brand colours ${b.brand.colors.join(', ')}` : '';
  const cover: SlideDraft = {
    kind: 'cover',
    title: b.cover.title?.trim() || titleCase(b.topic),
    body: b.cover.subtitle?.trim() || (k.b.audience ? `A short guide for ${k.b.audience}` : ''),
    visual_notes: `${b.style}${b.cover.backgroundImage ? '; full-bleed background image' : ''}${b.cover.backgroundStyle ? `; background ${b.cover.backgroundStyle}` : ''}${colours}`,
  };
  const content: SlideDraft[] = [];
  let fromSources = 0;
  for (let i = 0; i < contentCount; i++) {
    const given = b.contentSlides[i];
    const focus = given?.focus?.trim() ?? '';
    const specific = focus && !GENERIC_FOCUS.test(focus) ? focus : '';
    const e = k.evidence(`${focus} ${b.topic}`, 1, 40, specific || undefined)[0];
    if (!e && !specific) continue;
    if (e) fromSources++;
    content.push({
      kind: 'content',
      title: specific ? titleCase(specific) : labelOf(e!.text),
      body: e?.text ?? '',
      visual_notes: `${given?.visualStyle ?? b.style}${b.transitions ? `; transition: ${b.transitions}` : ''}${colours}`,
    });
  }
  const cta: SlideDraft = {
    kind: 'cta',
    title: b.cta.action?.trim() || (b.platform === 'profnet' ? 'Follow for more' : 'Save this post'),
    body: b.cta.link ? `More at ${b.cta.link}` : `Share it with someone thinking about ${topicPhrase(k.b)}.`,
    visual_notes: `${b.style}; call-to-action button${b.brand.logoUrl ? '; logo' : ''}${colours}`,
  };
  const slides = [cover, ...content, cta];
  return {
    slides,
    caption: `${emoji(k, 'lead')} ${titleCase(k.topic)}: ${slides.length} slides worth saving. Swipe through.`.trim(),
    hashtags: hashtagsFor(k),
    coverage: coverageOf(k.b, {
      keyPoints: 0,
      sources: fromSources,
      items: { wanted: contentCount, written: content.length },
      itemsLabel: 'content slides',
      // The field a client names slides' focuses with on this platform's route.
      itemsAdvice: `give each slide a focus (${b.platform === 'socialnet' ? 'content_distribution' : 'content_slides'}), or configure a language model (docs/providers.md); no slide is padded`,
    }),
  };
}
