/**
 * The content evaluation's measures of one piece of writing against the brief it was written from
 * (docs/quality.md). Pure: grammar comes from LanguageTool (languagetool.ts), faithfulness from the platform's
 * claim checker over the cited source's own text; everything else is counted here, by rules written down once.
 *
 *  - topicality: the share of prose sentences (4+ words) sharing a content word with the brief (topic, key points,
 *    instructions without their verb of asking, call to action, names) — two for a sentence that cites a source.
 *    Headings, greetings, sign-offs and attribution lines are not counted either way.
 *  - duplicates: sentences said twice (after lower-casing and removing citation markers and punctuation);
 *    repeated 4-grams: the share of word 4-grams that occur more than once.
 *  - key-point coverage: a key point is covered when at least 60 % of its content words (word forms folded) occur
 *    in one sentence, or at least two thirds of them occur in the piece.
 *  - instructions: a listicle of N items has N items (top-level list items or `###` item headings); a call to
 *    action asked for is present (most of its content words in one sentence); every hashtag is a word or
 *    words, not a fragment; every proper noun of the brief appears as the brief writes it, never lower-cased.
 *  - length: words (or characters) against what was asked.
 *  - citations: every `[n]` names a reference, numbering runs 1..k once over the piece, and every reference is cited.
 */
import { contentKeys } from '../../domain/analysis/word-forms';
import { splitSentences } from '../../domain/analysis/sentences';
import { STOPWORDS } from '../../domain/analysis/stopwords';
import { parseMarkdown } from '../../domain/analysis/markdown';

export interface Brief {
  id: string;
  corpus: boolean;
  topic: string;
  audience: string;
  key_points: string[];
  tone: string;
  instructions: string;
  format: { kind: 'listicle'; items: number } | { kind: 'guide' };
  platform: string;
  cta?: string;
  names: string[];
  words: number;
}

export interface Reference {
  n: number;
  title?: string;
  url?: string;
  /** The source's own text the citation stands for (what faithfulness is checked against). */
  excerpt?: string;
}

/** One output to judge, and what the request asked of it. */
export interface Piece {
  route: string;
  provider: string;
  brief: Brief;
  /** Markdown or plain text (a series of posts is joined with blank lines and judged as one piece). */
  text: string;
  hashtags?: string[];
  references?: Reference[];
  expects: {
    /** A listicle of N items, or `list`: a listicle asked for by a route that cannot say how many items. */
    listicle?: number | 'list';
    /** A call to action was asked for; `ctaText` when the route was told what it is (else any call counts). */
    cta?: boolean;
    ctaText?: string;
    keyPoints?: boolean;
    words?: number;
    maxChars?: number;
    citations?: boolean;
  };
  /** What the platform said about the piece (provider, writer, coverage ...). */
  metadata?: unknown;
}

export interface PieceScore {
  sentences: number;
  words: number;
  topicality: number;
  offTopic: string[];
  duplicates: string[];
  repeated4grams: number;
  keyPointCoverage?: number;
  missedKeyPoints: string[];
  listicle?: { wanted: number | 'list'; found: number; ok: boolean; nothingToList: boolean };
  cta?: { wanted: boolean; found: boolean };
  hashtagFragments: string[];
  lowerCasedNames: string[];
  length: { wanted?: number; got: number; unit: 'words' | 'characters' };
  citations: { markers: number; dangling: number[]; uncited: number[]; numbering: 'ok' | 'gaps' | 'restarts' | 'none' };
}

/** The brief's words that make a sentence "about" it. */
const ASKING = /^(mention|explain|recommend|suggest|say|stress|warn|show|give|keep|avoid|do not|reassure|compare)\b/i;
export function briefKeys(b: Brief): Set<string> {
  const instructions = b.instructions
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.replace(ASKING, '').replace(/^\s*(readers|that|them)\b/i, ''))
    .join(' ');
  const parts = [b.topic, ...b.key_points, instructions, b.cta ?? '', ...b.names];
  return new Set(parts.flatMap((p) => contentKeys(p)));
}

const MARKERS = /\s*\[\d+(?:\s*[,–-]\s*\d+)*\](?:\[\d+\])*/g;
const norm = (s: string) =>
  s
    .replace(MARKERS, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
/** Words of a sentence; an unfilled `{placeholder}` of a template (an email's `{sender_name}`) is not a word. */
const wordCount = (s: string) => (s.replace(/\{[^}]*\}/g, '').match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;

export interface Prose {
  /** Prose blocks' plain text (headings and the References part left out). */
  blocks: Array<{ kind: string; level: number; text: string }>;
  sentences: string[];
  headings: string[];
  listItems: number;
  itemHeadings: number;
}

/** The prose of a Markdown or plain text: sentences of paragraphs and list items; the References part dropped. */
export function proseOf(text: string): Prose {
  const cut = text.search(/^#{1,6}\s*(references|sources)\s*$/im);
  const body = cut >= 0 ? text.slice(0, cut) : text;
  const blocks = parseMarkdown(body).filter((b) => b.kind !== 'code' && b.kind !== 'table');
  const sentences: string[] = [];
  const headings: string[] = [];
  let listItems = 0;
  let itemHeadings = 0;
  const lists = new Set<number>();
  for (const b of blocks) {
    if (b.kind === 'heading') {
      headings.push(b.text.trim());
      if (b.level >= 2 && /^\s*(\d+[.)]|#?\d+:)/.test(b.text)) itemHeadings++;
      continue;
    }
    if (b.kind === 'list_item') {
      listItems++;
      lists.add(b.listId);
    }
    const t = b.text.replace(/#[\p{L}\p{N}_]+/gu, '').trim();
    for (const sp of splitSentences(t)) sentences.push(t.slice(sp.start, sp.end).trim());
  }
  return {
    blocks: blocks.map((b) => ({ kind: b.kind, level: b.level, text: b.text })),
    sentences: sentences.filter((s) => /\p{L}/u.test(s)),
    headings,
    listItems,
    itemHeadings,
  };
}

const GREETING =
  /^(?:(?:hi|hello|dear|hey|best|regards|kind regards|best regards|warm regards|all the best|many thanks|thanks|thank you|cheers|sincerely|warmly|welcome to)\b|i'm \p{Lu}|i am \p{Lu})/iu;
/** Lines that only attribute or list sources: "(Title of a source)", "Sources: https://...". */
const ATTRIBUTION = /^\(.*\)$|^sources?:/i;

/**
 * The share of judged sentences about the brief: the writer's own sentence must share a content word with it; a
 * sentence quoting a source (it carries `[n]`) must share two, so a source sentence that only happens to contain
 * one of the brief's words ("the author" of an SEO guide in a post about author events) is not counted as on topic.
 */
export function topicality(sentences: string[], keys: ReadonlySet<string>): { share: number; off: string[] } {
  const judged = sentences.filter((s) => wordCount(s) >= 4 && !GREETING.test(s) && !ATTRIBUTION.test(s.trim()));
  if (judged.length === 0) return { share: 1, off: [] };
  const off = judged.filter((s) => {
    const shared = new Set(contentKeys(s.replace(MARKERS, '')).filter((k) => keys.has(k))).size;
    return shared < (/\[\d/.test(s) ? 2 : 1);
  });
  return { share: (judged.length - off.length) / judged.length, off };
}

export function duplicates(sentences: string[]): string[] {
  const seen = new Map<string, number>();
  for (const s of sentences) {
    const n = norm(s);
    if (wordCount(n) < 4) continue;
    seen.set(n, (seen.get(n) ?? 0) + 1);
  }
  return [...seen.entries()].filter(([, c]) => c > 1).map(([s]) => s);
}

export function repeated4grams(sentences: string[]): number {
  const grams = new Map<string, number>();
  for (const s of sentences) {
    const w = norm(s).split(' ').filter(Boolean);
    for (let i = 0; i + 4 <= w.length; i++) {
      const g = w.slice(i, i + 4).join(' ');
      grams.set(g, (grams.get(g) ?? 0) + 1);
    }
  }
  const total = [...grams.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  const repeated = [...grams.values()].filter((c) => c > 1).reduce((a, b) => a + b, 0);
  return repeated / total;
}

/** Covered key points: 60 % of its content words in one sentence, or two thirds of them anywhere in the piece. */
export function keyPointCoverage(points: string[], sentences: string[]): { share: number; missed: string[] } {
  if (points.length === 0) return { share: 1, missed: [] };
  const sentenceKeys = sentences.map((s) => new Set(contentKeys(s)));
  const all = new Set(sentenceKeys.flatMap((k) => [...k]));
  const missed = points.filter((p) => {
    const keys = [...new Set(contentKeys(p))];
    if (keys.length === 0) return false;
    const inOne = sentenceKeys.some((sk) => keys.filter((k) => sk.has(k)).length >= Math.ceil(0.6 * keys.length));
    const anywhere = keys.filter((k) => all.has(k)).length >= Math.ceil((2 / 3) * keys.length);
    return !inOne && !anywhere;
  });
  return { share: (points.length - missed.length) / points.length, missed };
}

const CALL =
  /^(?:\W*)(book|visit|call|join|sign up|register|subscribe|follow|share|try|download|order|contact|comment|tell|save|start|read|learn|listen|watch|enrol|enroll|request|schedule|drop by|come|get|grab|reserve|shop|explore|discover|check out|reply|send|ask|let us know|dm|message)\b/i;
/** Whether some sentence calls the reader to act (an imperative of the usual calls, or "link in bio"). */
export function hasAnyCta(sentences: string[]): boolean {
  return sentences.some((s) => CALL.test(s.replace(/^[^\p{L}]+/u, '')) || /\blink in (?:bio|the comments)\b/i.test(s));
}

/** Whether the call to action asked for is in the text: most of its content words in one sentence. */
export function hasCta(cta: string, sentences: string[]): boolean {
  const keys = [...new Set(contentKeys(cta))];
  if (keys.length === 0) return true;
  return sentences.some((s) => {
    const sk = new Set(contentKeys(s));
    return keys.filter((k) => sk.has(k)).length >= Math.ceil(0.6 * keys.length);
  });
}

/**
 * Words that make no hashtag on their own. Written here, not imported from the writers' list (compose.ts WEAK):
 * the judge keeps its own rules, so a word the writers stop refusing is still caught.
 */
const WEAK_TAGS = new Set([
  'new',
  'good',
  'great',
  'best',
  'small',
  'big',
  'free',
  'more',
  'most',
  'tips',
  'ideas',
  'guide',
  'thing',
  'things',
  'way',
  'ways',
  'today',
  'now',
  'here',
  'every',
  'first',
]);

/**
 * A hashtag that is a fragment rather than words: a stop word or a lone weak word (#Should, #Small, #The), a
 * word cut before its last letter (#ChildrenS), or a tag whose parts are mostly stop words.
 */
export function hashtagFragments(tags: string[]): string[] {
  return tags.filter((raw) => {
    const tag = raw.replace(/^#/, '');
    if (tag.length < 3 || /^\d+$/.test(tag)) return true;
    if (/\p{Ll}\p{Lu}$/u.test(tag)) return true; // "ChildrenS": a possessive cut off
    const parts = tag
      .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
      .split(/[\s_]+/)
      .filter(Boolean)
      .map((p) => p.toLowerCase());
    if (parts.length === 1 && (STOPWORDS.has(parts[0]) || WEAK_TAGS.has(parts[0]))) return true;
    if (parts.filter((p) => STOPWORDS.has(p)).length * 2 > parts.length) return true;
    return parts.some((p) => p.length === 1 && p !== 'a');
  });
}

/** Proper nouns of the brief that the text writes in another case (lower-cased "thursday", "riverside books"). */
export function lowerCasedNames(names: string[], raw: string): string[] {
  // Addresses are not prose: a URL's "/local-seo" is not a lower-cased "SEO".
  const text = raw.replace(/(?:https?:\/\/|www\.)\S+|<[^>\s]+>/g, ' ');
  const out: string[] = [];
  for (const name of names) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'giu');
    for (const m of text.matchAll(re)) {
      if (m[0] !== name) {
        out.push(m[0]);
        break;
      }
    }
  }
  return out;
}

/**
 * `[n]` markers against the references: dangling markers, uncited references, and the numbering: `restarts` when
 * one number stands for two sources (each section numbering from 1), `gaps` when the numbers do not run 1..k.
 */
export function citationHygiene(text: string, refs: Reference[] = []): PieceScore['citations'] {
  const markers = [...text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)].flatMap((m) => m[1].split(/\s*,\s*/).map(Number));
  const refNums = refs.map((r) => r.n);
  const cited = new Set(markers);
  const dangling = [...cited].filter((n) => !refNums.includes(n)).sort((a, b) => a - b);
  const uncited = [...new Set(refNums.filter((n) => !cited.has(n)))];
  let numbering: PieceScore['citations']['numbering'] = 'none';
  if (markers.length || refs.length) {
    const byNumber = new Map<number, string>();
    const restarts = refs.some((r) => {
      const id = r.url ?? r.title ?? '';
      const seen = byNumber.get(r.n);
      byNumber.set(r.n, id);
      return seen !== undefined && seen !== id;
    });
    const distinct = [...new Set(refNums)].sort((a, b) => a - b);
    numbering = restarts ? 'restarts' : distinct.every((n, i) => n === i + 1) ? 'ok' : 'gaps';
  }
  return { markers: markers.length, dangling, uncited, numbering };
}

/** Every measure of one piece except grammar and faithfulness (which need LanguageTool and the claim checker). */
export function scorePiece(p: Piece): PieceScore {
  const prose = proseOf(p.text);
  const keys = briefKeys(p.brief);
  const top = topicality(prose.sentences, keys);
  const kp = p.expects.keyPoints === false ? undefined : keyPointCoverage(p.brief.key_points, prose.sentences);
  const words = prose.sentences.reduce((n, s) => n + wordCount(s.replace(MARKERS, '')), 0);
  const tags = [...new Set([...(p.hashtags ?? []), ...(p.text.match(/(?<![\p{L}\p{N}&])#[\p{L}\p{N}_]+/gu) ?? [])])];
  return {
    sentences: prose.sentences.length,
    words,
    topicality: top.share,
    offTopic: top.off,
    duplicates: duplicates(prose.sentences),
    repeated4grams: repeated4grams(prose.sentences),
    ...(kp ? { keyPointCoverage: kp.share } : {}),
    missedKeyPoints: kp?.missed ?? [],
    ...(p.expects.listicle
      ? (() => {
          const found = Math.max(prose.listItems, prose.itemHeadings);
          const wanted = p.expects.listicle;
          // An intro and at most one thing said: nothing to make a list of (a topic alone, off the sources). That
          // is a short text, counted apart from a text that says several things and does not list them.
          const nothingToList = wanted === 'list' && found < 2 && prose.sentences.length < 3;
          return {
            listicle: { wanted, found, ok: wanted === 'list' ? found >= 2 : found === wanted, nothingToList },
          };
        })()
      : {}),
    ...(p.expects.cta !== undefined
      ? {
          cta: {
            wanted: p.expects.cta,
            found: p.expects.ctaText ? hasCta(p.expects.ctaText, prose.sentences) : hasAnyCta(prose.sentences),
          },
        }
      : {}),
    hashtagFragments: hashtagFragments(tags),
    lowerCasedNames: lowerCasedNames(p.brief.names, p.text),
    length:
      p.expects.maxChars !== undefined
        ? { wanted: p.expects.maxChars, got: [...p.text].length, unit: 'characters' }
        : { wanted: p.expects.words, got: words, unit: 'words' },
    citations: citationHygiene(p.text, p.references),
  };
}

/** The plain text LanguageTool reads: prose sentences one paragraph per block, without markers and hashtags. */
export function textForGrammar(text: string): string {
  const cut = text.search(/^#{1,6}\s*(references|sources)\s*$/im);
  const body = cut >= 0 ? text.slice(0, cut) : text;
  return parseMarkdown(body)
    .filter((b) => b.kind === 'paragraph' || b.kind === 'list_item' || b.kind === 'blockquote')
    .map((b) =>
      b.text
        .replace(MARKERS, '')
        .replace(/(?<![\p{L}\p{N}&])#[\p{L}\p{N}_]+/gu, '')
        .replace(/https?:\/\/\S+/g, '')
        .replace(/[ \t]+/g, ' ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n\n');
}

/** Words the brief spells its own way (names, trade words): not the writer's typos. */
export function briefWords(b: Brief): Set<string> {
  const text = [b.topic, b.audience, ...b.key_points, b.instructions, b.cta ?? '', ...b.names].join(' ');
  const words = text.match(/[\p{L}][\p{L}'’&-]*/gu) ?? [];
  // As written, and capitalised at the start of a sentence ("practise" -> "Practise").
  return new Set(words.flatMap((w) => [w, w.charAt(0).toUpperCase() + w.slice(1)]));
}
