/**
 * Link and image checks, plus link suggestions from research sources.
 */
import { Assessment, Finding, SeoAnalysisResult } from './seo-types';
import { Image, Link, classifyLink } from './links';
import { Sentence, TextDocument, wordsOf } from './text';
import { contentKeys, wordKey } from './word-forms';
import { STOPWORDS } from './stopwords';
import { Source, Span } from './types';

export function assessLinks(
  links: Link[],
  whole: Span,
  siteUrl?: string,
): { assessment: Assessment; internal: number; outbound: number } {
  const kinds = links.map((l) => classifyLink(l.url, siteUrl));
  const internal = kinds.filter((k) => k === 'internal').length;
  const outbound = kinds.filter((k) => k === 'outbound').length;
  const findings: Finding[] = [];
  if (internal === 0) {
    findings.push({
      assessment: 'links',
      severity: 'improvement',
      ...whole,
      message: 'The text has no internal links.',
      recommendation: 'Link to 2-3 related posts on your own site with descriptive anchor text.',
    });
  }
  if (outbound === 0) {
    findings.push({
      assessment: 'links',
      severity: 'improvement',
      ...whole,
      message: 'The text has no outbound links.',
      recommendation: 'Cite at least one authoritative external source for your key facts (see link_suggestions).',
    });
  }
  return {
    assessment: { id: 'links', score: (internal > 0 ? 0.5 : 0) + (outbound > 0 ? 0.5 : 0), applicable: true, findings },
    internal,
    outbound,
  };
}

const GENERIC_ALT = new Set([
  'image',
  'img',
  'photo',
  'picture',
  'pic',
  'screenshot',
  'graphic',
  'banner',
  'untitled',
  'alt',
]);

/** Useful alt text: 5-125 characters, not a file name, not a generic word. */
export function altIssue(alt: string | null): string | null {
  if (alt === null || alt.trim() === '') return 'missing';
  const a = alt.trim();
  if (/\.(png|jpe?g|gif|webp|svg|avif)$/i.test(a) || /^(img|dsc|image)[-_]?\d+/i.test(a)) return 'file name';
  if (GENERIC_ALT.has(a.toLowerCase())) return 'generic';
  if (a.length < 5) return 'too short';
  if (a.length > 125) return 'too long';
  return null;
}

export function assessImages(
  images: Image[],
  whole: Span,
): { assessment: Assessment; status: SeoAnalysisResult['image_alt_status'] } {
  const findings: Finding[] = [];
  let withAlt = 0;
  let good = 0;
  for (const img of images) {
    const issue = altIssue(img.alt);
    if (issue !== 'missing') withAlt++;
    if (issue === null) good++;
    else {
      findings.push({
        assessment: 'image_alt',
        severity: issue === 'missing' ? 'problem' : 'improvement',
        start: img.start,
        end: img.end,
        message:
          issue === 'missing' ? `Image "${img.src}" has no alt text.` : `Alt text of image "${img.src}" is ${issue}.`,
        recommendation:
          'Describe what the image shows in 5-125 characters, including the focus keyword if it fits naturally.',
      });
    }
  }
  if (images.length === 0) {
    findings.push({
      assessment: 'image_alt',
      severity: 'improvement',
      ...whole,
      message: 'The text has no images.',
      recommendation: 'Add at least one relevant image with descriptive alt text.',
    });
  }
  const ratio = images.length ? good / images.length : 0;
  const quality = images.length === 0 ? 'no_images' : ratio >= 0.8 ? 'good' : ratio >= 0.5 ? 'fair' : 'poor';
  // missing alt scores 0, weak alt 0.5, good alt 1; no images at all scores 0.5
  const score = images.length ? (good + 0.5 * (withAlt - good)) / images.length : 0.5;
  return {
    assessment: { id: 'image_alt', score, applicable: true, findings },
    status: { images_with_alt: withAlt, images_without_alt: images.length - withAlt, alt_text_quality: quality },
  };
}

const normUrl = (u: string): string =>
  u
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/\/+$/, '');

/**
 * For each source, find the body sentence sharing the most content terms
 * with its title and excerpt (title terms count double; at least two shared
 * terms required), and propose the longest run of matching words in that
 * sentence as anchor text. Sources already linked are skipped; a sentence is
 * used once. Best matches first, at most `limit`.
 */
export function suggestLinks(
  doc: TextDocument,
  links: Link[],
  sources: Source[] = [],
  limit = 10,
): SeoAnalysisResult['link_suggestions'] {
  const linked = new Set(links.map((l) => normUrl(l.url)));
  const body = doc.sentences.filter((s) => s.blockKind !== 'heading');
  const sentenceKeys = body.map((s) =>
    wordsOf(s).map((t) => (STOPWORDS.has(t.text.toLowerCase()) ? '' : wordKey(t.text))),
  );
  const candidates: Array<{ score: number; si: number; src: Source }> = [];
  for (const src of sources) {
    if (!src?.url || linked.has(normUrl(src.url))) continue;
    const titleTerms = new Set(contentKeys(src.title ?? ''));
    const terms = new Set([...titleTerms, ...contentKeys(src.excerpt ?? '')]);
    let best: { score: number; si: number } | null = null;
    body.forEach((_, si) => {
      const shared = new Set(sentenceKeys[si].filter((k) => k !== '' && terms.has(k)));
      if (shared.size < 2) return;
      const score = shared.size + [...shared].filter((k) => titleTerms.has(k)).length;
      if (!best || score > best.score) best = { score, si };
    });
    if (best) candidates.push({ ...(best as { score: number; si: number }), src });
  }
  candidates.sort((a, b) => b.score - a.score);
  const used = new Set<number>();
  const out: SeoAnalysisResult['link_suggestions'] = [];
  for (const c of candidates) {
    if (used.has(c.si) || out.length >= limit) continue;
    used.add(c.si);
    const terms = new Set([...contentKeys(c.src.title ?? ''), ...contentKeys(c.src.excerpt ?? '')]);
    const anchor = anchorSpan(body[c.si], sentenceKeys[c.si], terms);
    out.push({
      text: doc.content.slice(anchor.start, anchor.end),
      suggested_url: c.src.url,
      context: body[c.si].text,
      ...anchor,
    });
  }
  return out;
}

/** Longest run (max 6 words) of words whose keys are source terms; stop words may sit inside a run. */
function anchorSpan(s: Sentence, keys: string[], terms: Set<string>): Span {
  const words = wordsOf(s);
  let best: Span = { start: s.start, end: s.end };
  let bestLen = 0;
  for (let i = 0; i < words.length; i++) {
    if (!terms.has(keys[i])) continue;
    let j = i;
    let last = i;
    while (j + 1 < words.length && j + 1 - i < 6 && (terms.has(keys[j + 1]) || keys[j + 1] === '')) {
      j++;
      if (terms.has(keys[j])) last = j;
    }
    const matched = keys.slice(i, last + 1).filter((k) => terms.has(k)).length;
    if (matched > bestLen) {
      bestLen = matched;
      best = { start: words[i].start, end: words[last].end };
    }
  }
  return best;
}
