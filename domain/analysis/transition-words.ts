/**
 * Transition words and phrases: signposts that tell the reader how a
 * sentence relates to the previous one. SEO readability checks expect at
 * least 30 % of sentences to contain one.
 */
import { Token } from './words';

const SINGLE =
  'accordingly additionally afterward afterwards also although besides but because consequently conversely ' +
  'finally first firstly second secondly third thirdly furthermore hence however indeed instead likewise ' +
  'meanwhile moreover nevertheless next nonetheless notably otherwise overall rather similarly since so ' +
  'specifically still subsequently then therefore thus ultimately unlike whereas while yet lastly later ' +
  'altogether admittedly namely undoubtedly initially previously surprisingly importantly alternatively';

const PHRASES = [
  'as a result',
  'for example',
  'for instance',
  'in addition',
  'in contrast',
  'in other words',
  'in fact',
  'on the other hand',
  'as well as',
  'in conclusion',
  'to summarize',
  'in summary',
  'in short',
  'after all',
  'above all',
  'at the same time',
  'by contrast',
  'even though',
  'even so',
  'for this reason',
  'in particular',
  'in the meantime',
  'in turn',
  'of course',
  'on the contrary',
  'such as',
  'to begin with',
  'that is',
  'in the end',
  'as long as',
  'so that',
  'due to',
  'because of',
  'in the same way',
  'to put it differently',
];

const SINGLE_SET = new Set(SINGLE.split(' '));
const PHRASE_WORDS = PHRASES.map((p) => p.split(' '));

/** Does the sentence contain a transition word or phrase? */
export function hasTransition(tokens: Token[]): boolean {
  const words = tokens.map((t) => t.text.toLowerCase());
  for (let i = 0; i < words.length; i++) {
    if (SINGLE_SET.has(words[i])) return true;
    for (const p of PHRASE_WORDS) {
      if (p[0] !== words[i] || i + p.length > words.length) continue;
      if (p.every((w, j) => words[i + j] === w)) return true;
    }
  }
  return false;
}

/** Does the sentence *open* with a transition (first three words)? Used for section boundaries. */
export function opensWithTransition(tokens: Token[]): boolean {
  return hasTransition(tokens.slice(0, 4)) && tokens.length > 0;
}
