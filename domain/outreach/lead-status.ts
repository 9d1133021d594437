/**
 * Which lead status moves are allowed (the spec leaves order and restrictions
 * open; docs/outreach.md shows this table). Manual moves (PATCH .../status and
 * bulk-status) follow MANUAL_MOVES; setting the status a lead already has is a
 * no-op. Automatic moves happen only from the states listed in AUTO_MOVES, so
 * a reply never reopens a lead the user closed (placed, lost).
 */
import type { LeadStatus, StatusCause } from '../events/outreach';

export const MANUAL_MOVES: Record<LeadStatus, LeadStatus[]> = {
  discovered: ['contacted', 'replied', 'lost'],
  contacted: ['replied', 'placed', 'bounced', 'lost'],
  replied: ['contacted', 'placed', 'lost'],
  placed: ['lost'],
  bounced: ['discovered', 'lost'],
  lost: ['discovered'],
};

/** Automatic moves: sending moves discovered → contacted, a reply contacted → replied, a hard bounce → bounced. */
export const AUTO_MOVES: Record<Exclude<StatusCause, 'manual'>, { from: LeadStatus[]; to: LeadStatus }> = {
  send: { from: ['discovered'], to: 'contacted' },
  reply: { from: ['contacted'], to: 'replied' },
  bounce: { from: ['discovered', 'contacted', 'replied'], to: 'bounced' },
};

export const manualMoveAllowed = (from: LeadStatus, to: LeadStatus): boolean =>
  from === to || MANUAL_MOVES[from].includes(to);
