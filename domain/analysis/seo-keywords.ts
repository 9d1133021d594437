/**
 * Keyword checks: density per keyword and placement of the focus keyword
 * (title, introduction, subheadings).
 *
 * Density = occurrences / total words (headings included), as a ratio
 * (0.0125 = 1.25 %). Occurrences match word forms (plural, -ing, -ed) via
 * word-form keys, and a phrase must appear contiguously inside one sentence.
 */
import { Assessment, Finding } from './seo-types';
import { TextDocument, wordsOf } from './text';
import { findPhrase, mentions, phraseKeys, wordKey } from './word-forms';
import { ResearchData, Span } from './types';
import { round } from './readability';

export const DENSITY_MIN = 0.005;
export const DENSITY_MAX = 0.03;

export interface KeywordSets {
  primary: string[];
  secondary: string[];
}

const norm = (k: string): string => k.trim().replace(/\s+/g, ' ');

/**
 * Primary = request keywords, or the research primary keywords when the
 * request has none. Secondary = research secondary keywords plus research
 * primary keywords not already primary. The first primary is the focus keyword.
 */
export function resolveKeywords(keywords: string[] = [], research?: ResearchData): KeywordSets {
  const ka = research?.keyword_analysis ?? {};
  const fromRequest = keywords.map(norm).filter((k) => k !== '');
  const primary = dedupe(fromRequest.length > 0 ? fromRequest : (ka.primary_keywords ?? []).map(norm));
  const seen = new Set(primary.map((k) => k.toLowerCase()));
  const secondary = dedupe([...(ka.primary_keywords ?? []), ...(ka.secondary_keywords ?? [])].map(norm)).filter(
    (k) => k !== '' && !seen.has(k.toLowerCase()),
  );
  return { primary, secondary };
}

function dedupe(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((k) => k !== '' && !seen.has(k.toLowerCase()) && (seen.add(k.toLowerCase()), true));
}

export interface KeywordHits {
  count: number;
  ratio: number;
  hits: Span[];
}

export function keywordHits(doc: TextDocument, keyword: string): KeywordHits {
  const keys = phraseKeys(keyword);
  let total = 0;
  const hits: Span[] = [];
  for (const s of doc.sentences) {
    const words = wordsOf(s);
    total += words.length;
    for (const i of findPhrase(
      words,
      keys,
      words.map((t) => wordKey(t.text)),
    )) {
      hits.push({ start: words[i].start, end: words[i + keys.length - 1].end });
    }
  }
  return { count: hits.length, ratio: total === 0 ? 0 : hits.length / total, hits };
}

/** 1 inside the 0.5-3 % band, falling linearly to 0 at 0 % and at 6 %. */
export function densityScore(ratio: number): number {
  if (ratio < DENSITY_MIN) return ratio / DENSITY_MIN;
  if (ratio > DENSITY_MAX) return Math.max(0, 1 - (ratio - DENSITY_MAX) / DENSITY_MAX);
  return 1;
}

const pct = (r: number): string => `${round(r * 100, 2)}%`;

export function assessDensity(
  doc: TextDocument,
  sets: KeywordSets,
): {
  assessment: Assessment;
  density: { primary_keywords: Record<string, number>; secondary_keywords: Record<string, number> };
} {
  const whole: Span = { start: 0, end: doc.content.length };
  const findings: Finding[] = [];
  const primary: Record<string, number> = {};
  const secondary: Record<string, number> = {};
  const scores: number[] = [];
  for (const k of sets.primary) {
    const h = keywordHits(doc, k);
    primary[k] = round(h.ratio, 4);
    scores.push(densityScore(h.ratio));
    if (h.ratio < DENSITY_MIN) {
      findings.push({
        assessment: 'keyword_density',
        severity: h.count === 0 ? 'problem' : 'improvement',
        ...whole,
        message: `Keyword "${k}" appears ${h.count} time(s) (${pct(h.ratio)}), below the 0.5% minimum.`,
        recommendation: `Use "${k}" (or its plural/-ing forms) about ${Math.max(1, Math.ceil(totalWords(doc) * DENSITY_MIN) - h.count)} more time(s) in the body.`,
      });
    } else if (h.ratio > DENSITY_MAX) {
      findings.push({
        assessment: 'keyword_density',
        severity: 'problem',
        start: h.hits[0].start,
        end: h.hits[h.hits.length - 1].end,
        message: `Keyword "${k}" density is ${pct(h.ratio)}, above the 3% maximum (keyword stuffing).`,
        recommendation: `Replace about ${h.count - Math.floor(totalWords(doc) * DENSITY_MAX)} occurrence(s) of "${k}" with synonyms or pronouns.`,
      });
    }
  }
  for (const k of sets.secondary) secondary[k] = round(keywordHits(doc, k).ratio, 4);
  const score = scores.length === 0 ? 0 : scores.reduce((a, b) => a + b, 0) / scores.length;
  return {
    assessment: { id: 'keyword_density', score, applicable: sets.primary.length > 0, findings },
    density: { primary_keywords: primary, secondary_keywords: secondary },
  };
}

function totalWords(doc: TextDocument): number {
  return doc.sentences.reduce((n, s) => n + wordsOf(s).length, 0);
}

/** Focus keyword in the title, the first paragraph and at least one subheading. */
export function assessPlacement(doc: TextDocument, focus: string | undefined, blogTitle?: string): Assessment {
  const findings: Finding[] = [];
  if (!focus) return { id: 'keyword_placement', score: 0, applicable: false, findings };
  const parts: number[] = [];
  const headings = doc.blocks.filter((b) => b.kind === 'heading');
  const h1 = headings.find((b) => b.level === 1);
  const title = blogTitle?.trim() || h1?.text;
  if (title) {
    const ok = mentions(title, focus);
    parts.push(ok ? 1 : 0);
    if (!ok) {
      const at: Span = blogTitle?.trim() ? { start: 0, end: 0 } : { start: h1!.start, end: h1!.end };
      findings.push({
        assessment: 'keyword_placement',
        severity: 'problem',
        ...at,
        message: `The title "${title}" does not contain the focus keyword "${focus}".`,
        recommendation: `Rewrite the title to include "${focus}", ideally near the beginning.`,
      });
    }
  }
  const intro = doc.blocks.find((b) => b.kind === 'paragraph' || b.kind === 'list_item' || b.kind === 'blockquote');
  if (intro) {
    const ok = mentions(intro.text, focus);
    parts.push(ok ? 1 : 0);
    if (!ok) {
      findings.push({
        assessment: 'keyword_placement',
        severity: 'problem',
        start: intro.start,
        end: intro.end,
        message: `The introduction does not mention the focus keyword "${focus}".`,
        recommendation: `Mention "${focus}" in the first paragraph, preferably in its first sentence.`,
      });
    }
  }
  const subs = headings.filter((b) => b.level >= 2);
  if (subs.length > 0) {
    const ok = subs.some((b) => mentions(b.text, focus));
    parts.push(ok ? 1 : 0);
    if (!ok) {
      findings.push({
        assessment: 'keyword_placement',
        severity: 'improvement',
        start: subs[0].start,
        end: subs[0].end,
        message: `None of the ${subs.length} subheadings mention "${focus}".`,
        recommendation: `Work "${focus}" or a close variant into at least one H2/H3 subheading, e.g. "${subs[0].text}".`,
      });
    }
  }
  const score = parts.length === 0 ? 0 : parts.reduce((a, b) => a + b, 0) / parts.length;
  return { id: 'keyword_placement', score, applicable: parts.length > 0, findings };
}
