/**
 * Numbers behind flow analysis, per section and per section boundary.
 *
 *  - transition (boundary i -> i+1): content-word overlap between the last
 *    two sentences of i and the heading + first two sentences of i+1
 *    (overlap coefficient, 25 % counts as full), 70 %, plus 30 % when the
 *    next section's first sentence contains a transition word.
 *  - coherence: cosine of the section's term vector with the rest of the
 *    article (60 %) and with its neighbours (40 %); a cosine of 0.5 or more
 *    counts as full marks (natural prose rarely exceeds it).
 *  - engagement: questions (10 % of sentences = full), direct address
 *    "you/your" (2 per 100 words), sentence-length variety (standard
 *    deviation 6 words) and concrete numbers (1 per 100 words), weighted
 *    25/25/30/20.
 *  - flow = 35 % coherence + 35 % transition + 30 % engagement.
 */
import { buildDocument, bodySentences, Sentence, wordsOf } from './text';
import { countText, fleschReadingEase } from './readability';
import { contentKeys } from './word-forms';
import { hasTransition } from './transition-words';
import { STOPWORDS } from './stopwords';
import { TermVector, addVectors, cosine, mean, overlap, stdev, termVector } from './vectors';

export interface FlowSectionInput {
  id: string;
  heading: string;
  content: string;
  target_words?: number;
}

export interface SectionMetrics {
  id: string;
  heading: string;
  target_words?: number;
  words: number;
  sentences: Sentence[];
  vector: TermVector;
  coherence: number;
  /** Mean cosine with the rest of the article, for messages. */
  similarity: number;
  transition: number;
  engagement: number;
  engagementParts: { questions: number; you_per_100: number; length_stdev: number; numbers_per_100: number };
  readability: number;
  flow: number;
  topWords: string[];
}

export interface BoundaryMetrics {
  from: string;
  to: string;
  score: number;
  overlap: number;
  transitionWord: boolean;
}

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
const keysOf = (ss: Sentence[]): Set<string> => new Set(ss.flatMap((s) => contentKeys(s.text)));

function topWords(ss: Sentence[], n: number): string[] {
  const freq = new Map<string, number>();
  for (const s of ss)
    for (const t of wordsOf(s)) {
      const w = t.text.toLowerCase();
      if (t.kind === 'word' && w.length > 3 && !STOPWORDS.has(w)) freq.set(w, (freq.get(w) ?? 0) + 1);
    }
  return [...freq.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([w]) => w);
}

function engagementOf(ss: Sentence[], words: number): { score: number; parts: SectionMetrics['engagementParts'] } {
  const per100 = (n: number): number => (words === 0 ? 0 : (100 * n) / words);
  const tokens = ss.flatMap(wordsOf);
  const parts = {
    questions: ss.length ? ss.filter((s) => s.text.trim().endsWith('?')).length / ss.length : 0,
    you_per_100: per100(tokens.filter((t) => /^(you|your|yours|yourself|you're|you'll|you've)$/i.test(t.text)).length),
    length_stdev: stdev(ss.map((s) => wordsOf(s).length)),
    numbers_per_100: per100(tokens.filter((t) => t.kind === 'number').length),
  };
  const score =
    0.25 * clamp01(parts.questions / 0.1) +
    0.25 * clamp01(parts.you_per_100 / 2) +
    0.3 * clamp01(parts.length_stdev / 6) +
    0.2 * clamp01(parts.numbers_per_100 / 1);
  return { score: Math.round(100 * score), parts };
}

export function computeFlow(sections: FlowSectionInput[]): {
  sections: SectionMetrics[];
  boundaries: BoundaryMetrics[];
} {
  const parsed = sections.map((s) => {
    const sentences = bodySentences(buildDocument(s.content ?? ''));
    const words = sentences.reduce((n, x) => n + wordsOf(x).length, 0);
    return { s, sentences, words, vector: termVector(`${s.heading} ${sentences.map((x) => x.text).join(' ')}`) };
  });
  const boundaries: BoundaryMetrics[] = [];
  for (let i = 0; i + 1 < parsed.length; i++) {
    const a = keysOf(parsed[i].sentences.slice(-2));
    const nextFirst = parsed[i + 1].sentences.slice(0, 2);
    const b = new Set([...keysOf(nextFirst), ...contentKeys(parsed[i + 1].s.heading)]);
    const ov = overlap(a, b);
    const tw = nextFirst.length > 0 && hasTransition(nextFirst[0].tokens);
    boundaries.push({
      from: parsed[i].s.id,
      to: parsed[i + 1].s.id,
      overlap: ov,
      transitionWord: tw,
      score: Math.round(100 * (0.7 * clamp01(ov / 0.25) + 0.3 * (tw ? 1 : 0))),
    });
  }
  const total = addVectors(parsed.map((p) => p.vector));
  const metrics = parsed.map((p, i): SectionMetrics => {
    const rest = new Map(total);
    for (const [k, n] of p.vector) rest.set(k, (rest.get(k) ?? 0) - n);
    for (const [k, n] of rest) if (n <= 0) rest.delete(k);
    const neighbours = [parsed[i - 1], parsed[i + 1]].filter(Boolean).map((q) => cosine(p.vector, q.vector));
    const similarity = parsed.length > 1 ? cosine(p.vector, rest) : 1;
    const coherence =
      parsed.length > 1 ? Math.round(100 * clamp01((0.6 * similarity + 0.4 * mean(neighbours)) / 0.5)) : 100;
    const around = [boundaries[i - 1], boundaries[i]].filter(Boolean).map((b) => b.score);
    const transition = around.length ? Math.round(mean(around)) : 100;
    const eng = engagementOf(p.sentences, p.words);
    const fre = fleschReadingEase(countText(p.sentences));
    return {
      id: p.s.id,
      heading: p.s.heading,
      target_words: p.s.target_words,
      words: p.words,
      sentences: p.sentences,
      vector: p.vector,
      coherence,
      similarity,
      transition,
      engagement: eng.score,
      engagementParts: eng.parts,
      readability: Math.round(Math.max(0, Math.min(100, fre))),
      flow: Math.round(0.35 * coherence + 0.35 * transition + 0.3 * eng.score),
      topWords: topWords(p.sentences, 3),
    };
  });
  return { sections: metrics, boundaries };
}

/** Thematic consistency and progression logic across all sections (0-100). */
export function crossSection(metrics: SectionMetrics[]): { thematic: number; progression: number } {
  const n = metrics.length;
  if (n < 2) return { thematic: 100, progression: 100 };
  const pairs: number[] = [];
  const sim = (i: number, j: number): number => cosine(metrics[i].vector, metrics[j].vector);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push(sim(i, j));
  const thematic = Math.round(100 * clamp01(mean(pairs) / 0.5));
  if (n < 3) return { thematic, progression: 100 };
  // a logical progression puts each section next to the one it is most like
  let adjacent = 0;
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestSim = -1;
    for (let j = 0; j < n; j++) {
      const s = j !== i ? sim(i, j) : -1;
      if (s > bestSim) {
        bestSim = s;
        best = j;
      }
    }
    if (Math.abs(best - i) === 1) adjacent++;
  }
  return { thematic, progression: Math.round((100 * adjacent) / n) };
}
