/**
 * Which sentences are checkable claims?
 *
 * A body sentence (not a heading, not a question, 4+ words) is a claim when
 * it states something a source could confirm or refute: a number, a date, a
 * named entity (capitalised non-initial word), a comparison (more/less/
 * than/-est), an absolute ("always", "never", "all", "none", "every"), a
 * qualified generalisation ("usually", "most", "rarely", or a denial: "does
 * not"), an effect or change ("rose", "hurts", "beats"), or when it cites a
 * source ("[3]": the writer presents it as sourced).
 * Citation markers ("[3]", "[1, 2]", "[1][2]") are neither numbers nor words
 * of the claim; a claim's `text` is its sentence without them (`start`/`end`
 * still span the sentence in the content, markers included).
 */
import { buildDocument, bodySentences } from './text';
import { CITATION_MARKER, Facts, extractFacts, maskCitations } from './claim-facts';
import { EFFECT_INFLECTED, EFFECT_WORDS, QUALIFIER_WORDS } from './claim-lexicon/claim-cues';
import { wordKey } from './word-forms';
import { oppositeKeys } from './claim-relations';
import { tokenize } from './words';
import { Span } from './types';

export type ClaimType = 'statistic' | 'date' | 'entity' | 'comparison' | 'absolute' | 'qualified' | 'effect' | 'cited';

export interface Claim extends Span {
  text: string;
  types: ClaimType[];
  facts: Facts;
}

const COMPARISON = new Set([
  'more',
  'less',
  'fewer',
  'greater',
  'higher',
  'lower',
  'than',
  'most',
  'least',
  'best',
  'worst',
  'larger',
  'smaller',
  'faster',
  'slower',
  'cheaper',
  'better',
  'worse',
  'top',
  'leading',
  'main',
  'primary',
]);
const ABSOLUTE = new Set([
  'always',
  'never',
  'all',
  'none',
  'every',
  'everyone',
  'everything',
  'nobody',
  'nothing',
  'guaranteed',
  'entirely',
  'completely',
  'impossible',
]);
/** Words ending in -est that are not superlatives. */
const NOT_SUPERLATIVE = new Set([
  'interest',
  'test',
  'request',
  'suggest',
  'forest',
  'honest',
  'modest',
  'harvest',
  'contest',
  'protest',
  'invest',
  'digest',
  'manifest',
  'arrest',
  'guest',
  'quest',
  'chest',
  'nest',
  'west',
  'rest',
  'best',
  'attest',
  'conquest',
  'interest',
  'divest',
  'pest',
  'vest',
  'crest',
  'zest',
]);

const QUALIFIERS = new Set(QUALIFIER_WORDS);
const COPULA = new Set([
  'is',
  'are',
  'was',
  'were',
  'remain',
  'remains',
  'remained',
  'stayed',
  'stays',
  'became',
  'become',
]);
const EFFECTS = new Set(EFFECT_WORDS.map(wordKey));
const INFLECTED = new Set(EFFECT_INFLECTED);
/** Denials ("does not", "never", "no longer"); an imperative ("Don't ...", "Never ...") is advice, not a claim. */
const NEGATION = /\b(?:not|no|never|none|nobody|nothing|cannot|\w+n[’']t)\b/i;
const IMPERATIVE = /^\s*(?:do not|don[’']t|never|please)\b/i;

export function claimTypes(text: string, words: string[], facts: Facts, cited = false): ClaimType[] {
  const lower = words.map((w) => w.toLowerCase());
  const types: ClaimType[] = [];
  if (facts.numbers.length > 0) types.push('statistic');
  if (facts.dates.length > 0) types.push('date');
  if (facts.names.length > 0) types.push('entity');
  if (lower.some((w) => COMPARISON.has(w) || (w.length > 5 && w.endsWith('est') && !NOT_SUPERLATIVE.has(w))))
    types.push('comparison');
  if (lower.some((w) => ABSOLUTE.has(w)) || /\bno one\b/i.test(text)) types.push('absolute');
  // (an absolute's "always"/"all" is already 'absolute')
  if (lower.some((w) => QUALIFIERS.has(w) && !ABSOLUTE.has(w)) || (NEGATION.test(text) && !IMPERATIVE.test(text)))
    types.push('qualified');
  if (lower.some((w) => INFLECTED.has(w) || w.split('-').some((part) => EFFECTS.has(wordKey(part)))))
    types.push('effect');
  // a state said of the subject that has an opposite: "flour costs were volatile", "the process is simple"
  else if (
    lower.some(
      (w, i) =>
        COPULA.has(lower[i - 1] ?? '') &&
        (oppositeKeys(wordKey(w)).size > 0 || /^(?:volatile|stable|steady|unchanged|constant|erratic)$/.test(w)),
    )
  )
    types.push('effect');
  if (cited) types.push('cited');
  return types;
}

export function extractClaims(content: string): Claim[] {
  const out: Claim[] = [];
  // Markers are blanked before Markdown parsing (same length, so offsets hold): "[1][2]" would read as a link.
  for (const s of bodySentences(buildDocument(maskCitations(content)))) {
    const text = s.text
      .replace(/\s+([.,;:!?])/g, '$1')
      .replace(/\s{2,}/g, ' ')
      .trim();
    const words = tokenize(text)
      .filter((t) => t.kind !== 'url')
      .map((t) => t.text);
    if (words.length < 4 || text.endsWith('?')) continue;
    const facts = extractFacts(text);
    const cited = new RegExp(CITATION_MARKER.source).test(content.slice(s.start, s.end));
    const types = claimTypes(text, words, facts, cited);
    if (types.length > 0) out.push({ text, start: s.start, end: s.end, types, facts });
  }
  return out;
}
