/**
 * Claim lexicon: what is and is not a subject word. LIGHT_VERBS and
 * NUMBER_BOUND are not; EXCLUSIVE_SETS and ATTRIBUTIVE_SETS name words that
 * pick out another thing ("evening"/"morning", "short manuals"/"long manuals").
 * The lexicon as a whole: claim-words.ts.
 */

/** Verbs that say little about the subject ("make errors", "take time", "get traffic"): not subject words. */
export const LIGHT_VERBS = [
  'make',
  'makes',
  'made',
  'making',
  'get',
  'gets',
  'got',
  'getting',
  'take',
  'takes',
  'took',
  'taken',
  'taking',
  'give',
  'gives',
  'gave',
  'given',
  'go',
  'goes',
  'went',
  'gone',
  'come',
  'comes',
  'came',
  'put',
  'puts',
  'say',
  'says',
  'said',
  // "found" is read as the past of "find" (claim-meaning.ts wordKey): "Northwind found that ..." reports
  'find',
  'finds',
  'found',
];

/** A bound right before a figure ("fewer than six", "over 30", "at least 5%"): read with the number, not as a word. */
export const NUMBER_BOUND =
  /\b(?:no )?(?:more|fewer|less|[a-z]+er) than(?= (?:[$€£]?\d|(?:a|an|one) (?:second|minute|hour|day|week|month|quarter|year|decade)\b|(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a dozen|dozen|a hundred|hundreds)\b))|\b(?:over|above|under|below|at least|at most|up to)(?= [$€£]?\d)/gi;

/**
 * Words of one set exclude each other: a sentence saying "evening" where its
 * source says "morning" is about something else (neither confirmed nor
 * reversed).
 */
export const EXCLUSIVE_SETS: string[][] = [
  ['morning', 'afternoon', 'evening', 'night', 'midday', 'noon', 'overnight'],
  ['spring', 'summer', 'autumn', 'winter'],
  ['mobile', 'desktop', 'tablet', 'laptop'],
  ['men', 'women', 'male', 'female'],
  ['urban', 'rural', 'suburban'],
  ['online', 'offline', 'in-store'],
  ['weekday', 'weekend'],
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  ['first', 'second', 'third', 'fourth', 'final', 'last'],
  [
    'car',
    'cars',
    'bus',
    'buses',
    'train',
    'trains',
    'bike',
    'bikes',
    'bicycle',
    'foot',
    'taxi',
    'tram',
    'plane',
    'ferry',
    'coach',
  ],
  ['children', 'child', 'kids', 'teen', 'teens', 'teenagers', 'adults', 'adult', 'seniors', 'students', 'toddlers'],
];

/**
 * Adjectives that, right before a noun, name which thing is meant ("small
 * teams", "long manuals") rather than how it goes: read as part of the
 * subject, and a different one of a set ("short manuals" for "long manuals")
 * is another thing, not a reversal. Used predicatively ("teams are small")
 * they stay antonyms.
 */
export const ATTRIBUTIVE_SETS: string[][] = [
  ['small', 'large', 'big', 'tiny', 'huge'],
  ['short', 'long'],
  ['high', 'low'],
  ['fast', 'slow', 'quick'],
  ['cheap', 'expensive', 'costly'],
  ['early', 'late'],
  ['simple', 'complex'],
  ['good', 'bad', 'poor', 'great'],
  ['strong', 'weak'],
  ['easy', 'hard', 'difficult'],
];
