/**
 * Claim lexicon: ANTONYM_GROUPS, pairs of opposite word sets (direction,
 * valence, speed, ...): a sentence saying "fell" where its source says
 * "rose" reverses it; and the prefixes that negate a word ("unproductive").
 * The lexicon as a whole: claim-words.ts.
 */
import { DOWN, UP } from './polarity-direction';
import { BAD, GOOD } from './polarity-valence';
import { BLOCK, ENABLE, FAST, KEEP, SLOW, STOP } from './polarity-speed-permission-continuity';

/** Membership. */
export const MEMBERSHIP_A = [
  'include',
  'includes',
  'included',
  'add',
  'adds',
  'added',
  'introduce',
  'introduces',
  'introduced',
  'adopt',
  'adopts',
  'adopted',
];
export const MEMBERSHIP_B = [
  'exclude',
  'excludes',
  'excluded',
  'omit',
  'omits',
  'omitted',
  'remove',
  'removes',
  'removed',
  'abolish',
  'abolishes',
  'abolished',
  'scrap',
  'scraps',
  'scrapped',
];

/** Pairs of opposite word sets (a word belongs to one side of one group); groups on one `axis` oppose each other too. */
export const ANTONYM_GROUPS: Array<{ name: string; axis?: string; a: string[]; b: string[] }> = [
  // One axis, several measures: up, good, fast, allowed and kept against down, bad, slow, blocked and stopped.
  // "hurts traffic" reverses "lifts traffic" and "disaster" reverses "beats"; the measure tells what a
  // comparison compares by ("slower to rank than" is not "more backlinks than").
  { name: 'direction', axis: 'polarity', a: UP, b: DOWN },
  { name: 'valence', axis: 'polarity', a: GOOD, b: BAD },
  { name: 'speed', axis: 'polarity', a: FAST, b: SLOW },
  { name: 'permission', axis: 'polarity', a: ENABLE, b: BLOCK },
  { name: 'continuity', axis: 'polarity', a: KEEP, b: STOP },
  {
    name: 'price',
    a: ['cheap', 'cheaper', 'cheapest', 'cheaply', 'inexpensive', 'affordable'],
    b: ['expensive', 'costly', 'pricier', 'pricey'],
  },
  {
    name: 'time',
    a: ['before', 'early', 'earlier', 'earliest', 'prior'],
    b: ['after', 'late', 'later'],
  },
  {
    name: 'length',
    a: ['long', 'longer', 'longest', 'lengthy'],
    b: ['short', 'shorter', 'shortest', 'brief'],
  },
  {
    name: 'stance',
    a: [
      'prefer',
      'prefers',
      'preferred',
      'favor',
      'favour',
      'favored',
      'favoured',
      'welcome',
      'welcomed',
      'accept',
      'accepted',
      'approve',
      'approved',
      'agree',
      'agreed',
      'trust',
      'trusted',
      'embrace',
      'embraced',
    ],
    b: [
      'dislike',
      'disliked',
      'oppose',
      'opposed',
      'reject',
      'rejected',
      'avoid',
      'avoided',
      'refuse',
      'refused',
      'resist',
      'resisted',
      'disagree',
      'disagreed',
      'distrust',
      'distrusted',
      'mistrust',
    ],
  },
  { name: 'membership', a: MEMBERSHIP_A, b: MEMBERSHIP_B },
  {
    name: 'truth',
    a: ['true', 'correct', 'accurate'],
    b: ['false', 'wrong', 'incorrect', 'inaccurate', 'mistaken'],
  },
  {
    name: 'complexity',
    a: ['simple', 'simpler', 'simplest', 'straightforward'],
    b: ['complex', 'complicated', 'convoluted'],
  },
  { name: 'sameness', a: ['same', 'identical', 'similar'], b: ['different', 'various', 'distinct'] },
  { name: 'openness', a: ['open', 'opened', 'opens'], b: ['closed', 'closes', 'shut'] },
  { name: 'position', a: ['above'], b: ['below'] },
  {
    name: 'activity',
    a: ['busy', 'busier', 'busiest', 'crowded', 'packed'],
    b: ['quiet', 'quieter', 'quietest', 'empty', 'idle'],
  },
];

/** Prefixes that negate a word: "unproductive" against "productive", "ineffective" against "effective". */
export const NEGATING_PREFIXES = ['un', 'in', 'im', 'il', 'ir', 'dis', 'non'];
