/**
 * Structure checks: heading hierarchy, words between subheadings, paragraph
 * length, list usage and overall text length.
 */
import { Assessment, Finding, HeadingInfo, SeoAnalysisResult } from './seo-types';
import { TextDocument, wordsOf } from './text';
import { Span } from './types';
import { round } from './readability';

export const MAX_PARAGRAPH_WORDS = 150;
export const MAX_WORDS_BETWEEN_SUBHEADINGS = 300;
export const MIN_TEXT_WORDS = 300;

type Structure = SeoAnalysisResult['structure'];

/** Words per block index (body sentences only). */
export function wordsPerBlock(doc: TextDocument): Map<number, number> {
  const m = new Map<number, number>();
  for (const s of doc.sentences) m.set(s.blockIndex, (m.get(s.blockIndex) ?? 0) + wordsOf(s).length);
  return m;
}

export function bodyWordCount(doc: TextDocument): number {
  return doc.sentences.filter((s) => s.blockKind !== 'heading').reduce((n, s) => n + wordsOf(s).length, 0);
}

export function headingsOf(doc: TextDocument): HeadingInfo[] {
  return doc.blocks
    .filter((b) => b.kind === 'heading')
    .map((b) => ({ level: b.level, text: b.text.trim(), start: b.start, end: b.end }));
}

/**
 * Hierarchy: the post title is the page's H1, so content may start at H2.
 * A heading deeper than previous + 1 skips a level (H2 -> H4); a second H1
 * competes with the title.
 */
export function assessHeadings(doc: TextDocument): {
  assessment: Assessment;
  hierarchy: Structure['heading_hierarchy'];
  distribution: Structure['heading_distribution'];
} {
  const headings = headingsOf(doc);
  const findings: Finding[] = [];
  const skipped: Structure['heading_hierarchy']['skipped_levels'] = [];
  let prev = 1;
  for (const h of headings) {
    if (h.level > prev + 1) {
      skipped.push({ from: prev, to: h.level, heading: h.text, start: h.start, end: h.end });
      findings.push({
        assessment: 'heading_structure',
        severity: 'problem',
        start: h.start,
        end: h.end,
        message: `Heading "${h.text}" jumps from H${prev} to H${h.level}.`,
        recommendation: `Change "${h.text}" to H${prev + 1} or add an H${prev + 1} above it.`,
      });
    }
    prev = h.level;
  }
  const h1s = headings.filter((h) => h.level === 1);
  for (const h of h1s.slice(1)) {
    findings.push({
      assessment: 'heading_structure',
      severity: 'problem',
      start: h.start,
      end: h.end,
      message: `"${h.text}" is an additional H1; a page should have exactly one H1 (the title).`,
      recommendation: `Demote "${h.text}" to H2.`,
    });
  }
  const words = bodyWordCount(doc);
  const subs = headings.filter((h) => h.level >= 2).length;
  let score = 1 - (h1s.length > 1 ? 0.4 : 0) - Math.min(0.6, 0.2 * skipped.length);
  if (subs === 0 && words >= MIN_TEXT_WORDS) {
    score = 0;
    findings.push({
      assessment: 'heading_structure',
      severity: 'problem',
      start: 0,
      end: doc.content.length,
      message: `The ${words}-word text has no subheadings.`,
      recommendation: 'Break the text into sections with descriptive H2 subheadings (one every 200-300 words).',
    });
  }
  const count = (l: number): number => headings.filter((h) => h.level === l).length;
  return {
    assessment: {
      id: 'heading_structure',
      score: Math.max(0, score),
      applicable: headings.length > 0 || words >= MIN_TEXT_WORDS,
      findings,
    },
    hierarchy: {
      is_valid: skipped.length === 0 && h1s.length <= 1,
      headings,
      skipped_levels: skipped,
      multiple_h1: h1s.length > 1,
    },
    distribution: { h1: count(1), h2: count(2), h3: count(3) },
  };
}

/** Body words in each stretch between headings (the text before the first heading included). */
export function assessSubheadingDistribution(doc: TextDocument): Assessment {
  const perBlock = wordsPerBlock(doc);
  const segments: Array<Span & { words: number }> = [];
  let cur: (Span & { words: number }) | null = null;
  doc.blocks.forEach((b, i) => {
    if (b.kind === 'heading') {
      cur = null;
      return;
    }
    if (!cur) segments.push((cur = { start: b.start, end: b.end, words: 0 }));
    cur.end = b.end;
    cur.words += perBlock.get(i) ?? 0;
  });
  const findings: Finding[] = segments
    .filter((s) => s.words > MAX_WORDS_BETWEEN_SUBHEADINGS)
    .map((s) => ({
      assessment: 'subheading_distribution' as const,
      severity: 'problem' as const,
      start: s.start,
      end: s.end,
      message: `${s.words} words run without a subheading (maximum ${MAX_WORDS_BETWEEN_SUBHEADINGS}).`,
      recommendation: `Insert ${Math.ceil(s.words / MAX_WORDS_BETWEEN_SUBHEADINGS) - 1} subheading(s) inside this stretch where the topic shifts.`,
    }));
  const ok = segments.length - findings.length;
  return {
    id: 'subheading_distribution',
    score: segments.length ? ok / segments.length : 1,
    applicable: segments.length > 0,
    findings,
  };
}

export function assessParagraphs(doc: TextDocument): {
  assessment: Assessment;
  paragraph_length: Structure['paragraph_length'];
} {
  const perBlock = wordsPerBlock(doc);
  const paras = doc.blocks
    .map((b, i) => ({ b, words: perBlock.get(i) ?? 0 }))
    .filter((p) => p.b.kind === 'paragraph' || p.b.kind === 'blockquote');
  const long = paras.filter((p) => p.words > MAX_PARAGRAPH_WORDS);
  const findings: Finding[] = long.map((p) => ({
    assessment: 'paragraph_length',
    severity: 'problem',
    start: p.b.start,
    end: p.b.end,
    message: `This paragraph has ${p.words} words (maximum ${MAX_PARAGRAPH_WORDS}).`,
    recommendation: `Split it into ${Math.ceil(p.words / 100)} shorter paragraphs of about 100 words each.`,
  }));
  const total = paras.reduce((n, p) => n + p.words, 0);
  return {
    assessment: {
      id: 'paragraph_length',
      score: paras.length ? 1 - long.length / paras.length : 1,
      applicable: paras.length > 0,
      findings,
    },
    paragraph_length: {
      paragraphs: paras.length,
      average_words: paras.length ? round(total / paras.length, 1) : 0,
      max_words: paras.reduce((m, p) => Math.max(m, p.words), 0),
      over_limit: long.length,
    },
  };
}

/** Lists are informational (weight 0): they help scanning but are not required. */
export function assessLists(doc: TextDocument): { assessment: Assessment; list_usage: Structure['list_usage'] } {
  const items = doc.blocks.filter((b) => b.kind === 'list_item');
  const lists = new Set(items.map((b) => b.listId)).size;
  const words = bodyWordCount(doc);
  const findings: Finding[] = [];
  if (lists === 0 && words >= MIN_TEXT_WORDS) {
    findings.push({
      assessment: 'list_usage',
      severity: 'improvement',
      start: 0,
      end: doc.content.length,
      message: 'The text has no bulleted or numbered list.',
      recommendation:
        'Turn a sequence of steps, options or key points into a bulleted list to make the post easier to scan.',
    });
  }
  return {
    assessment: { id: 'list_usage', score: lists > 0 ? 1 : 0, applicable: words >= MIN_TEXT_WORDS, findings },
    list_usage: { lists, list_items: items.length, has_lists: lists > 0 },
  };
}

export function assessTextLength(doc: TextDocument): Assessment {
  const words = bodyWordCount(doc);
  const findings: Finding[] = [];
  if (words < MIN_TEXT_WORDS) {
    findings.push({
      assessment: 'text_length',
      severity: 'problem',
      start: 0,
      end: doc.content.length,
      message: `The text has ${words} words; at least ${MIN_TEXT_WORDS} are recommended.`,
      recommendation: `Add about ${MIN_TEXT_WORDS - words} words, for example an example, a how-to step or an FAQ answer.`,
    });
  }
  return { id: 'text_length', score: Math.min(1, words / MIN_TEXT_WORDS), applicable: true, findings };
}
