/**
 * Which sentences are checkable claims?
 *
 * A body sentence (not a heading, not a question, 4+ words) is a claim when
 * it states something a source could confirm or refute: a number, a date, a
 * named entity (capitalised non-initial word), a comparison (more/less/
 * than/-est) or an absolute ("always", "never", "all", "none", "every").
 */
import { buildDocument, bodySentences, wordsOf } from './text';
import { Facts, extractFacts } from './claim-facts';
import { Span } from './types';

export type ClaimType = 'statistic' | 'date' | 'entity' | 'comparison' | 'absolute';

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

export function claimTypes(text: string, words: string[], facts: Facts): ClaimType[] {
  const lower = words.map((w) => w.toLowerCase());
  const types: ClaimType[] = [];
  if (facts.numbers.length > 0) types.push('statistic');
  if (facts.dates.length > 0) types.push('date');
  if (facts.names.length > 0) types.push('entity');
  if (lower.some((w) => COMPARISON.has(w) || (w.length > 5 && w.endsWith('est') && !NOT_SUPERLATIVE.has(w))))
    types.push('comparison');
  if (lower.some((w) => ABSOLUTE.has(w)) || /\bno one\b/i.test(text)) types.push('absolute');
  return types;
}

export function extractClaims(content: string): Claim[] {
  const out: Claim[] = [];
  for (const s of bodySentences(buildDocument(content))) {
    const words = wordsOf(s).map((t) => t.text);
    if (words.length < 4 || s.text.trim().endsWith('?')) continue;
    const facts = extractFacts(s.text);
    const types = claimTypes(s.text, words, facts);
    if (types.length > 0) out.push({ text: s.text, start: s.start, end: s.end, types, facts });
  }
  return out;
}
