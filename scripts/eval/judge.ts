/**
 * Judges a piece: the counted measures (metrics.ts), grammar by LanguageTool, and faithfulness — every cited
 * sentence read against the text of the source it cites, fetched from where the citation points (the sample
 * corpus is served by the platform itself). A cited sentence is supported when the claim checker finds none of
 * its claims contradicted or unverified against that source AND most of its content words occur in one sentence
 * of the source (a citation on a sentence the source does not say is unsupported).
 */
import { checkClaims, withoutAttribution } from '../../domain/analysis/claims';
import { contentKeys } from '../../domain/analysis/word-forms';
import { splitSentences } from '../../domain/analysis/sentences';
import { briefWords, Piece, PieceScore, proseOf, scorePiece, textForGrammar } from './metrics';
import { counted, LanguageTool, LtMatch } from './languagetool';

export interface Judged extends PieceScore {
  route: string;
  provider: string;
  brief: string;
  corpus: boolean;
  grammar: { errors: number; per100: number; samples: Array<Pick<LtMatch, 'rule' | 'covered' | 'message'>> };
  faithfulness: { cited: number; unsupported: string[] };
  text: string;
  metadata?: unknown;
}

export type SourceText = (url: string) => Promise<string | undefined>;

const normSentence = (x: string) =>
  x
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

export async function faithfulness(p: Piece, sourceText: SourceText): Promise<Judged['faithfulness']> {
  const refs = new Map((p.references ?? []).map((r) => [r.n, r]));
  const unsupported: string[] = [];
  let cited = 0;
  for (const sentence of proseOf(p.text).sentences) {
    const numbers = [...sentence.matchAll(MARKER)].flatMap((m) => m[1].split(/\s*,\s*/).map(Number));
    if (numbers.length === 0) continue;
    cited++;
    const claim = sentence
      .replace(MARKER, '')
      .replace(/\s+([.!?])/g, '$1')
      .trim();
    // Whose point it is ("As “Title” notes, ...") is the citation's business; the words of the point must be the source's.
    const keys = new Set(contentKeys(withoutAttribution(claim)));
    let ok = false;
    for (const n of new Set(numbers)) {
      const ref = refs.get(n);
      const body = ref?.url ? await sourceText(ref.url) : ref?.excerpt;
      if (!body) continue;
      const source = { title: ref!.title ?? '', url: ref!.url ?? 'https://source.invalid/', excerpt: body };
      const verdicts = checkClaims(claim, [source]).claim_analysis.map((c) => c.verification_status);
      const best = Math.max(
        0,
        ...splitSentences(body).map((sp) => {
          const sk = new Set(contentKeys(body.slice(sp.start, sp.end)));
          return keys.size ? [...keys].filter((k) => sk.has(k)).length / keys.size : 0;
        }),
      );
      if (!verdicts.some((v) => v !== 'verified') && best >= 0.5) ok = true;
    }
    if (!ok) unsupported.push(sentence);
  }
  return { cited, unsupported };
}

export async function judge(p: Piece, lt: LanguageTool | undefined, sourceText: SourceText): Promise<Judged> {
  const s = scorePiece(p);
  const plain = textForGrammar(p.text);
  const allowed = briefWords(p.brief);
  // A match inside a sentence the brief itself wrote (a key point stated as written) is not the writer's error.
  const own = new Set(
    [...p.brief.key_points, ...p.brief.instructions.split(/(?<=[.!?])\s+/), p.brief.cta ?? ''].map(normSentence),
  );
  const spans = splitSentences(plain);
  const inOwnSentence = (m: LtMatch) => {
    const sp = spans.find((x) => m.offset >= x.start && m.offset < x.end);
    return sp !== undefined && own.has(normSentence(plain.slice(sp.start, sp.end)));
  };
  const matches = lt ? (await lt.check(plain)).filter((m) => counted(m, allowed) && !inOwnSentence(m)) : [];
  const words = Math.max(1, (plain.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length);
  return {
    route: p.route,
    provider: p.provider,
    brief: p.brief.id,
    corpus: p.brief.corpus,
    ...s,
    grammar: {
      errors: matches.length,
      per100: (100 * matches.length) / words,
      samples: matches.slice(0, 5).map((m) => ({ rule: m.rule, covered: m.covered, message: m.message })),
    },
    faithfulness: await faithfulness(p, sourceText),
    text: p.text,
    metadata: p.metadata,
  };
}

/** Where a citation's URL can be read: corpus URLs on the platform under evaluation (any host), others not at all. */
export function corpusReader(base: string, key: string): SourceText {
  const cache = new Map<string, Promise<string | undefined>>();
  return (url) => {
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return Promise.resolve(undefined);
    }
    if (!path.startsWith('/api/research/corpus/')) return Promise.resolve(undefined);
    if (!cache.has(path))
      cache.set(
        path,
        fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } }).then((r) =>
          r.ok ? r.text() : undefined,
        ),
      );
    return cache.get(path)!;
  };
}

export interface RouteSummary {
  route: string;
  provider: string;
  pieces: number;
  failed: number;
  medianTopicality: number;
  minTopicality: number;
  withDuplicates: number;
  meanRepeated4grams: number;
  meanKeyPointCoverage?: number;
  ltPer100: number;
  hashtagFragments: number;
  lowerCasedNames: number;
  danglingCitations: number;
  numberingFaults: number;
  unsupportedCited: number;
  cited: number;
  listicleMisses: number;
  /** Listicles asked for where the text had nothing to list (an intro and at most one thing): not misses. */
  listicleNothing: number;
  ctaMisses: number;
  meanLengthRatio?: number;
}

const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export function summarise(route: string, provider: string, js: Judged[], failed: number): RouteSummary {
  const kp = js.filter((j) => j.keyPointCoverage !== undefined).map((j) => j.keyPointCoverage!);
  const words = js.reduce((n, j) => n + j.words, 0);
  const lengths = js
    .filter((j) => j.length.wanted && j.length.unit === 'words')
    .map((j) => j.length.got / j.length.wanted!);
  return {
    route,
    provider,
    pieces: js.length,
    failed,
    medianTopicality: median(js.map((j) => j.topicality)),
    minTopicality: Math.min(...js.map((j) => j.topicality)),
    withDuplicates: js.filter((j) => j.duplicates.length).length,
    meanRepeated4grams: mean(js.map((j) => j.repeated4grams)),
    ...(kp.length ? { meanKeyPointCoverage: mean(kp) } : {}),
    ltPer100: words ? (100 * js.reduce((n, j) => n + j.grammar.errors, 0)) / words : 0,
    hashtagFragments: js.reduce((n, j) => n + j.hashtagFragments.length, 0),
    lowerCasedNames: js.reduce((n, j) => n + j.lowerCasedNames.length, 0),
    danglingCitations: js.reduce((n, j) => n + j.citations.dangling.length, 0),
    numberingFaults: js.filter((j) => j.citations.numbering === 'gaps' || j.citations.numbering === 'restarts').length,
    unsupportedCited: js.reduce((n, j) => n + j.faithfulness.unsupported.length, 0),
    cited: js.reduce((n, j) => n + j.faithfulness.cited, 0),
    listicleMisses: js.filter((j) => j.listicle && !j.listicle.ok && !j.listicle.nothingToList).length,
    listicleNothing: js.filter((j) => j.listicle?.nothingToList).length,
    ctaMisses: js.filter((j) => j.cta && j.cta.wanted && !j.cta.found).length,
    ...(lengths.length ? { meanLengthRatio: mean(lengths) } : {}),
  };
}
