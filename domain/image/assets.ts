/**
 * The decision to record that a user got a stored image: once per user and
 * content address (the same bytes produced again are the same asset).
 */
import type { Decider } from '../decider';
import type { ImageEvent } from '../events/image';

export type StoredImageFacts = ImageEvent['data'];

export const imageAssetDecider: Decider<{ kind: 'record'; image: StoredImageFacts }, { recorded: boolean }> = {
  initialState: { recorded: false },
  evolve: (s, e) => (e.type === 'ImageStored' ? { recorded: true } : s),
  decide: (c, s) => (s.recorded ? [] : [{ type: 'ImageStored', data: c.image }]),
};
