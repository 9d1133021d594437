/**
 * Offline carousels: a cover (the client's title, else the topic), content
 * slides that each take one focus (the client's, else a phrase the sources
 * share) and the best source sentence for it, and a call-to-action slide.
 */
import type { CarouselDraft, SlideDraft } from '../../writers/drafts';
import type { CarouselBrief } from '../../writers/types';
import { titleCase } from '../text';
import { emoji, frame, hashtagsFor, Kit, labelOf, slotsOf } from './kit';

export function writeCarousel(k: Kit, b: CarouselBrief): CarouselDraft {
  const contentCount = Math.max(0, b.slides - 2);
  const colours = b.brand.colors.length ? `; brand colours ${b.brand.colors.join(', ')}` : '';
  const cover: SlideDraft = {
    kind: 'cover',
    title: b.cover.title?.trim() || titleCase(b.topic),
    body: b.cover.subtitle?.trim() || frame('A short guide for {audience}', slotsOf(k)),
    visual_notes: `${b.style}${b.cover.backgroundImage ? '; full-bleed background image' : ''}${b.cover.backgroundStyle ? `; background ${b.cover.backgroundStyle}` : ''}${colours}`,
  };
  const content: SlideDraft[] = [];
  for (let i = 0; i < contentCount; i++) {
    const given = b.contentSlides[i];
    const focus = given?.focus?.trim() ?? '';
    const e = k.evidence(`${focus} ${b.topic}`, 1, 40)[0];
    content.push({
      kind: 'content',
      title:
        focus && !/^(tips?|examples?|facts?|steps?|points?)$/i.test(focus)
          ? titleCase(focus)
          : e
            ? labelOf(e.text)
            : `${titleCase(b.topic)} (${i + 1})`,
      body: e?.text ?? frame('How {focus} fits into {topic}.', slotsOf(k, { focus: focus || 'this' })),
      visual_notes: `${given?.visualStyle ?? b.style}${b.transitions ? `; transition: ${b.transitions}` : ''}${colours}`,
    });
  }
  const cta: SlideDraft = {
    kind: 'cta',
    title: b.cta.action?.trim() || (b.platform === 'profnet' ? 'Follow for more' : 'Save this post'),
    body: b.cta.link ? `More at ${b.cta.link}` : frame('Share it with someone who works on {topic}.', slotsOf(k)),
    visual_notes: `${b.style}; call-to-action button${b.brand.logoUrl ? '; logo' : ''}${colours}`,
  };
  return {
    slides: [cover, ...content, cta],
    caption:
      `${emoji(k, 'lead')} ${frame('{Topic}: {n} slides worth saving. Swipe through.', slotsOf(k, { n: String(b.slides) }))}`.trim(),
    hashtags: hashtagsFor(k),
  };
}
