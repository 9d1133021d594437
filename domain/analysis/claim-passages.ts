/**
 * What the claim checker compares: a claim as a probe (its keys with
 * synonyms folded and antonym words by class, its subject keys, the words
 * that name things) and the source sentences as passages (keys of the
 * sentence, its title and its source, facts), plus the BM25 query that
 * finds a paraphrase's passage.
 */
import { Claim } from './claim-extract';
import { Facts, MONTH_WORDS, UNIT_WORDS, extractFacts, maskCitations } from './claim-facts';
import { SYNONYM_GROUPS } from './claim-lexicon/synonyms';
import { canonicalKey, contentKeys, foldPhrases, isQualifierKey, phraseKeys, poleClass, wordKey } from './claim-words';
import { coverageKeys, thingWords } from './claim-things';
import { ClaimSource } from './claim-types';
import { splitSentences } from './sentences';

export interface Passage {
  source: ClaimSource;
  text: string;
  /** Keys of the sentence and of its source's title. */
  keys: Set<string>;
  /** Keys of the sentence alone: whether it is about the claim's subject is read from these. */
  ownKeys: Set<string>;
  facts: Facts;
  /**
   * For `mentionsWord`, what the passage speaks of: its sentence's words; those with its source's title and lead
   * sentence; and its whole source's.
   */
  sentenceKeys: Set<string>;
  nearKeys: Set<string>;
  docKeys: Set<string>;
  /** The sentence's own words that name things (`thingWords`). */
  things: string[];
}

/** What a claim is compared by: its text without markers, its keys (synonyms folded) and subject keys. */
export interface Probe {
  claim: Claim;
  text: string;
  keys: Set<string>;
  /** How many of `keys` are words (not antonym classes). */
  plain: number;
  subject: Set<string>;
  /** The words of the claim that name things (`thingWords`): a source that says the claim mentions each. */
  things: string[];
}

/**
 * Content keys with synonyms folded ("sales" -> "revenue") and antonym words
 * by class ("lifts" ~ "increases"); unit words, negations and hedges (judged
 * apart) dropped.
 */
export function claimKeysOf(text: string): Set<string> {
  return new Set(
    contentKeys(foldPhrases(text))
      .filter((k) => !isQualifierKey(k))
      .map((k) => poleClass(k) ?? canonicalKey(k))
      .filter((k) => !UNIT_WORDS.has(k) && !MONTH_WORDS.has(k)),
  );
}

/** A passage's keys: every word as written and in its canonical (synonym) form, plus the source title's. */
function passageKeys(text: string, title: string): Set<string> {
  const raw = [...contentKeys(text), ...phraseKeys(text), ...contentKeys(title)];
  const folded = [...contentKeys(foldPhrases(text)), ...contentKeys(foldPhrases(title))];
  const classes = folded.map(poleClass).filter((c): c is string => c !== undefined);
  return new Set([...raw, ...raw.map(canonicalKey), ...folded.map(canonicalKey), ...classes]);
}

const SYNONYMS_OF = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) for (const w of group) SYNONYMS_OF.set(canonicalKey(wordKey(w)), group);

/** The BM25 query: the claim's words plus the synonyms of its words, so a paraphrase finds its passage. */
export function queryOf(text: string, keys: Set<string>): string {
  const extra = [...keys].flatMap((k) => SYNONYMS_OF.get(k) ?? []);
  return [foldPhrases(text), ...new Set(extra)].join(' ');
}

/**
 * The sentences of an excerpt. An excerpt may be Markdown: paragraphs, headings and list items end a
 * sentence even without a full stop, and their markers ("## ", "- ") are not words.
 */
function sentencesOfExcerpt(text: string): string[] {
  return text
    .split(/\n\s*\n|\n(?=\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s))/)
    .map((block) => block.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)/, '').trim())
    .filter(Boolean)
    .flatMap((block) => splitSentences(block).map(({ start, end }) => block.slice(start, end)));
}

/** Passages of a source, memoised by its title and excerpt (bounded): sources repeat across calls. */
const passageMemo = new Map<string, Array<Omit<Passage, 'source'>>>();

export function passagesOf(sources: ClaimSource[]): Passage[] {
  return sources.flatMap((source) => {
    const text = source.excerpt ?? '';
    const memoKey = `${source.title ?? ''}\u0000${text}`;
    let parts = passageMemo.get(memoKey);
    if (!parts) {
      const docKeys = coverageKeys(`${source.title ?? ''}\n${maskCitations(text)}`);
      const sentences = sentencesOfExcerpt(text);
      // what the source as a whole is about: its title and its lead sentence ("questioned 2,500 employees")
      const leadKeys = coverageKeys(`${source.title ?? ''}\n${maskCitations(sentences[0] ?? '')}`);
      parts = sentences.map((t) => {
        // markers in a source ("... 45% [2].") are not its words or figures either
        const plain = maskCitations(t).replace(/\s+([.,;:!?])/g, '$1');
        return {
          text: t,
          keys: passageKeys(plain, source.title ?? ''),
          ownKeys: passageKeys(plain, ''),
          facts: extractFacts(plain),
          sentenceKeys: coverageKeys(plain),
          nearKeys: new Set([...coverageKeys(plain), ...leadKeys]),
          things: thingWords(plain),
          docKeys,
        };
      });
      if (passageMemo.size >= 2_000) passageMemo.clear();
      passageMemo.set(memoKey, parts);
    }
    return parts.map((part) => ({ ...part, source }));
  });
}

export const validSource = (s: ClaimSource): boolean =>
  typeof s?.excerpt === 'string' && s.excerpt.trim() !== '' && /^https?:\/\/\S+$/i.test(s.url ?? '');
