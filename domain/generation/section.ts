/**
 * writeSection: one Markdown section of the offline writer, written from relevance, not to a length.
 *
 * What goes in, in reading order (docs/providers.md "What `local` honestly is"):
 * 1. The best source sentences about the section as a whole (its heading, the topic and keywords), when a source
 *    is about it at all: at least two content words shared (compose.ts `isRelevant`).
 * 2. Each key point as its own sentence (or list item), followed by the source sentences about that point.
 * 3. The instructions a rule can carry out ("Mention that …"), and the call to action, when the request has them.
 * Sentences are taken while the body stays within the target + 10 %; nothing else is added. When the brief and
 * the relevant sources give fewer words than asked, the section is shorter and `coverage.shortfall` says why.
 *
 * `[n]` is the number of the source as given (its `index`, the numbering a vendor prompt uses too), so callers map
 * markers to sources the same way whichever provider wrote; the activities then number the finished piece's
 * citations 1..k in reading order (article.ts `renumberCitations`). Choices between equivalent frames are made by
 * a hash of the input.
 */
import type { SectionDraft, Source, WriteSectionInput } from './types';
import type { NumberedSource } from './evidence';
import {
  buildEvidencePool,
  bestEvidence,
  EvidenceSentence,
  EvidencePool,
  frameEvidence,
  numberSources,
} from './evidence';
import { asSentence, Brief, coverageOf, ctaSentence, isRelevant, isSpecific, keysOf, readBrief } from './compose';
import { pointKind } from './phrases';
import { canBeVerb } from '../analysis/claim-relations';
import { wordKey } from '../analysis/word-forms';
import { markdownWordCount, properNouns, withCitation, wordsIn } from './text';

/** State shared by the sections of one piece: the sources' sentences, what has been quoted and cited. */
export interface WriterContext {
  numbered: NumberedSource[];
  pool: EvidencePool;
  proper: Set<string>;
  /** Cited sources by their number. */
  cited: Map<number, Source>;
}

export function createWriterContext(sources: Source[] = []): WriterContext {
  const numbered = numberSources(sources);
  return {
    numbered,
    pool: buildEvidencePool(numbered),
    proper: properNouns(sources.map((s) => s.excerpt ?? '')),
    cited: new Map(),
  };
}

const LISTY =
  /\b(tips|steps|ways|checklist|mistakes|practices|ideas|tools|takeaways|strategies|signs|tactics|rules|questions|examples|lessons)\b|^how to\b/i;

interface Paragraph {
  kind: 'p' | 'li' | 'h3';
  sentences: string[];
}

/** Writes one section body (no `##` heading) from its brief and the sources about it; see the module comment. */
export function writeSection(input: WriteSectionInput, shared?: WriterContext): SectionDraft {
  const ctx = shared ?? createWriterContext(input.sources ?? []);
  const target = Math.max(1, Math.round(input.targetWords));
  const limit = target * 1.1;
  const brief: Brief = readBrief({
    topic: input.topic || input.heading,
    audience: input.audience,
    keyPoints: input.keyPoints?.length ? input.keyPoints : input.subheadings,
    tone: input.tone,
    instructions: input.instructions,
    cta: input.cta,
  });
  const seed = `${input.heading}|${brief.keyPoints.join(';')}|${input.tone ?? ''}`;
  const sectionKeys = input.subject
    ? keysOf(input.subject)
    : keysOf(input.heading, input.topic ?? '', ...(input.keywords ?? []));
  const listMode =
    input.list ?? (brief.keyPoints.length >= 3 && (LISTY.test(input.heading) || LISTY.test(input.topic ?? '')));

  const paragraphs: Paragraph[] = [];
  let words = 0;
  const used: EvidenceSentence[] = [];
  const fits = (text: string) => words + wordsIn(text) <= limit;
  const add = (p: Paragraph, text: string): boolean => {
    if (!fits(text)) return false;
    p.sentences.push(text);
    words += wordsIn(text);
    return true;
  };
  /** The best unused source sentences about `keys` (two shared content words at least), at most `k`. */
  const evidence = (query: string, keys: ReadonlySet<string>, k: number): EvidenceSentence[] =>
    bestEvidence(ctx.pool, query, k + 6)
      .filter((e) => !used.includes(e) && isRelevant(e.text, keys))
      .slice(0, k);
  const quote = (p: Paragraph, e: EvidenceSentence): boolean => {
    // In a list the quoted sentence stands plain (an attribution frame on every item reads as a tic).
    const text = p.kind === 'li' ? withCitation(e.text, e.n) : frameEvidence(e, seed, ctx.proper);
    if (!add(p, text)) return false;
    used.push(e);
    ctx.pool.used.add(e.id);
    ctx.cited.set(e.n, { ...ctx.numbered.find((s) => s.n === e.n)!.source, index: e.n });
    return true;
  };

  // Sentences a point can take beyond itself: the target spread over the points (about 20 words a sentence).
  const perPoint = Math.max(1, Math.floor(target / 20 / Math.max(1, brief.keyPoints.length + 1)));
  const opening: Paragraph = { kind: 'p', sentences: [] };
  paragraphs.push(opening);
  // A list without key points is a list of what the sources say about it: one quoted sentence an item.
  const itemsFromSources = listMode && brief.keyPoints.length === 0;
  for (const e of evidence(
    `${input.heading} ${(input.keywords ?? []).join(' ')}`,
    sectionKeys,
    brief.keyPoints.length ? 1 : perPoint + 2,
  )) {
    if (!itemsFromSources) quote(opening, e);
    else {
      const item: Paragraph = { kind: 'li', sentences: [] };
      if (quote(item, e)) paragraphs.push(item);
    }
  }

  // Subheadings given one per key point head their points (prose only); otherwise they stand in for missing points.
  const subheads =
    !listMode && input.keyPoints?.length && input.subheadings?.length === input.keyPoints.length
      ? input.subheadings
      : [];
  let pointsUsed = 0;
  const bare: string[] = [];
  for (const [k, point] of brief.keyPoints.entries()) {
    const p: Paragraph = { kind: listMode ? 'li' : 'p', sentences: [] };
    const keys = keysOf(point, input.subject ?? input.heading, input.topic ?? '');
    const pointKeys = keysOf(point);
    // A short phrase ("Posting frequency", an outline's point) reads as a run-in label over what the sources say
    // about it; with nothing from them it is stated on its own, as the user gave it.
    const phrase = pointKind(point) === 'noun' && point.split(/\s+/).length <= 3;
    // About the point itself, not only the section: every word of a phrase, or a specific word of a sentence.
    const found = evidence(`${point} ${input.heading}`, keys, perPoint).filter((e) => {
      const have = keysOf(e.text);
      return phrase
        ? [...pointKeys].every((x) => have.has(x))
        : [...pointKeys].some((x) => have.has(x) && isSpecific(x));
    });
    // A phrase the sources say nothing about would stand alone as a fragment ("Consistency."): in prose such
    // phrases are named together in one sentence after the points (`bare`), with no claim added about them.
    if (phrase && !found.length && !listMode && !readsAsInstruction(point)) {
      bare.push(point);
      pointsUsed++;
      continue;
    }
    if (!add(p, phrase && found.length ? `**${asSentence(point)}**` : asSentence(point))) break;
    pointsUsed++;
    if (subheads[k]) paragraphs.push({ kind: 'h3', sentences: [subheads[k].trim()] });
    paragraphs.push(p);
    for (const e of found) quote(p, e);
  }

  if (bare.length) {
    const named: Paragraph = { kind: 'p', sentences: [] };
    if (add(named, coversSentence(bare, ctx.proper))) paragraphs.push(named);
    else pointsUsed -= bare.length;
  }

  const closing: Paragraph = { kind: 'p', sentences: [] };
  for (const s of brief.instructions.sentences) add(closing, s);
  const cta = ctaSentence(brief, seed);
  if (cta) add(closing, cta);
  paragraphs.push(closing);

  const markdown = render(paragraphs);
  const wordCount = markdownWordCount(markdown);
  const cited = new Set(used.map((e) => e.n));
  const citations = [...cited].sort((a, b) => a - b).map((n) => ctx.cited.get(n)!);
  return {
    heading: input.heading,
    markdown,
    wordCount,
    citations,
    coverage: coverageOf(brief, { keyPoints: pointsUsed, sources: cited.size, words: wordCount, targetWords: target }),
  };
}

/**
 * Whether a short point can be read as an instruction ("Pick a cadence", "Assign owners"): more than one word and a
 * first word that can be a verb (WordNet) and is no gerund. Such a point stands as a sentence; "This section covers
 * pick a cadence" would not be one.
 */
function readsAsInstruction(point: string): boolean {
  const words = point.trim().split(/\s+/);
  const first = words[0].toLowerCase();
  return words.length > 1 && !/ing$/.test(first) && canBeVerb(wordKey(first));
}

/**
 * One sentence naming key points given as phrases ("This section covers consistency and planning ahead."): each
 * as the user wrote it, its first letter lowered unless the word is a name (capitalised inside a sentence of the
 * sources, or written with inner capitals).
 */
export function coversSentence(points: string[], proper: ReadonlySet<string>): string {
  const phrases = points.map((raw) => {
    const p = raw.trim().replace(/[.!?;:]+$/, '');
    const first = p.split(/\s+/)[0];
    const name = proper.has(first) || /\s\p{Lu}/u.test(p);
    return /^\p{Lu}\p{Ll}*$/u.test(first) && !name ? p.charAt(0).toLowerCase() + p.slice(1) : p;
  });
  const list =
    phrases.length <= 2
      ? phrases.join(' and ')
      : `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
  return `This section covers ${list}.`;
}

function render(paragraphs: Paragraph[]): string {
  const out: string[] = [];
  let prev: Paragraph['kind'] | undefined;
  for (const p of paragraphs) {
    if (p.sentences.length === 0) continue;
    if (p.kind === 'h3') out.push(`${prev ? '\n\n' : ''}### ${p.sentences[0]}`);
    else if (p.kind === 'li') out.push(`${prev === 'li' ? '\n' : prev ? '\n\n' : ''}- ${p.sentences.join(' ')}`);
    else
      for (let s = 0; s < p.sentences.length; s += 5) {
        out.push(`${prev ? '\n\n' : ''}${p.sentences.slice(s, s + 5).join(' ')}`);
        prev = 'p';
      }
    prev = p.kind;
  }
  return out.join('');
}
