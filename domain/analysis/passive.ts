/**
 * Passive-voice heuristic: a form of "to be" followed (within two words,
 * allowing adverbs such as "not" or "quickly") by a past participle, either
 * regular (-ed) or from the irregular table. It misses passives without
 * "be" ("got fired") and flags some adjectival participles ("is tired");
 * both are accepted trade-offs of every rule-based checker.
 */
import { Token } from './words';

const BE = new Set(['am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', "isn't", "aren't", "wasn't", "weren't"]);
const SKIP = new Set([
  'not',
  'never',
  'also',
  'always',
  'often',
  'still',
  'just',
  'already',
  'being',
  'been',
  'usually',
  'then',
  'now',
  'all',
  'both',
]);

const IRREGULAR = new Set(
  (
    'arisen awoken beaten become begun bent bet bid bitten blown born borne bound bred broken brought built burnt ' +
    'bought cast caught chosen clung come cost crept cut dealt done drawn dreamt driven drunk dug eaten fallen fed ' +
    'felt fought found fled flung flown forbidden forecast forgotten forgiven frozen given gotten ground grown hung ' +
    'heard hidden hit held hurt kept knelt known laid led leant learnt left lent let lain lit lost made meant met ' +
    'mistaken overcome overseen overtaken paid proven put quit read rebuilt rewritten ridden rung risen run said ' +
    'seen sought sold sent set sewn shaken shed shone shot shown shrunk shut sung sunk slain slept slid slung spat ' +
    'spent split spoken spread sprung stolen stuck stung struck strewn sworn swept swum swung taken taught torn ' +
    'told thought thrown thrust trodden understood undertaken upheld upset woken worn woven wed won wound withdrawn ' +
    'withheld written'
  ).split(' '),
);
const NOT_PARTICIPLE = new Set([
  'need',
  'feed',
  'seed',
  'speed',
  'bed',
  'red',
  'shed',
  'hundred',
  'indeed',
  'embed',
  'sacred',
  'naked',
  'wicked',
  'ragged',
  'rugged',
  'kindred',
  'bled',
]);

export function isParticiple(word: string): boolean {
  const w = word.toLowerCase();
  if (IRREGULAR.has(w)) return true;
  return w.length >= 4 && w.endsWith('ed') && !NOT_PARTICIPLE.has(w);
}

/** Is the sentence (as tokens) in the passive voice? */
export function isPassive(tokens: Token[]): boolean {
  const words = tokens.map((t) => t.text.toLowerCase());
  for (let i = 0; i < words.length; i++) {
    if (!BE.has(words[i])) continue;
    for (let j = i + 1; j < Math.min(words.length, i + 4); j++) {
      const w = words[j];
      if (isParticiple(w)) return true;
      if (!(SKIP.has(w) || w.endsWith('ly'))) break;
    }
  }
  return false;
}
