/**
 * Claim lexicon: the smaller measures of the polarity axis (antonyms.ts):
 * speed ("faster" against "delayed"), permission ("allows" against "bans")
 * and continuity ("kept" against "stopped").
 * The lexicon as a whole: claim-words.ts.
 */

/** Speed. */
export const FAST = [
  'fast',
  'faster',
  'fastest',
  'quick',
  'quicker',
  'quickly',
  'rapid',
  'rapidly',
  'speed',
  'sooner',
  'accelerate',
  'accelerates',
  'accelerated',
];
export const SLOW = ['slow', 'slower', 'slowest', 'slowly', 'delay', 'delays', 'delayed', 'decelerate', 'decelerated'];
/** Permission. */
export const ENABLE = ['allow', 'allows', 'allowed', 'enable', 'enables', 'enabled', 'permit', 'permits', 'permitted'];
export const BLOCK = [
  'block',
  'blocks',
  'blocked',
  'forbid',
  'forbids',
  'ban',
  'banned',
  'hinder',
  'hinders',
  'hindered',
];
/** Continuity. */
export const KEEP = [
  'continue',
  'continues',
  'continued',
  'keep',
  'keeps',
  'kept',
  'maintain',
  'maintains',
  'maintained',
  'retain',
  'retains',
  'retained',
  'stay',
  'stays',
  'stayed',
  'remain',
  'remains',
  'remained',
];
export const STOP = [
  'stop',
  'stops',
  'stopped',
  'quit',
  'quits',
  'abandon',
  'abandons',
  'abandoned',
  'cease',
  'ceased',
  'discontinue',
  'discontinued',
  'leave',
  'leaves',
  'left',
  'cancel',
  'cancels',
  'cancelled',
  'canceled',
  'cancelling',
];
