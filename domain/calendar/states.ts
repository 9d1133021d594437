/**
 * The event state machine (docs/calendar.md "Event states"). Moves a client
 * may ask for (PATCH status, bulk status, approve) are in MOVES; `failed` is
 * set only by the publishing timer. An illegal move is a VALIDATION_ERROR
 * naming both states.
 *
 *   draft      → scheduled, cancelled
 *   generated  → draft, scheduled, approved, cancelled
 *   scheduled  → draft, approved, published, cancelled      (+ failed by the timer)
 *   approved   → scheduled, draft, published, cancelled     (+ failed by the timer)
 *   published  → (final)
 *   cancelled  → draft, scheduled
 *   failed     → draft, scheduled, cancelled
 *
 * With approval required (calendar approval_workflow, or the event's
 * metadata.approval_required), `scheduled → published` is refused: the event
 * must be approved first.
 */
import type { EventStatus } from '../events/calendar';
import { invalid } from './errors';

export const EVENT_STATUSES: EventStatus[] = [
  'draft',
  'generated',
  'scheduled',
  'approved',
  'published',
  'cancelled',
  'failed',
];

export const MOVES: Record<EventStatus, EventStatus[]> = {
  draft: ['scheduled', 'cancelled'],
  generated: ['draft', 'scheduled', 'approved', 'cancelled'],
  scheduled: ['draft', 'approved', 'published', 'cancelled'],
  approved: ['scheduled', 'draft', 'published', 'cancelled'],
  published: [],
  cancelled: ['draft', 'scheduled'],
  failed: ['draft', 'scheduled', 'cancelled'],
};

/** States in which the publishing timer runs (when the event has a time and the calendar publishes automatically). */
export const TIMED: EventStatus[] = ['scheduled', 'approved'];

export const canMove = (from: EventStatus, to: EventStatus): boolean => MOVES[from].includes(to);

/** Throws VALIDATION_ERROR naming both states when `from → to` is not allowed. */
export function checkMove(from: EventStatus, to: EventStatus, field = 'status', approvalRequired = false): void {
  if (!canMove(from, to)) {
    const allowed = MOVES[from];
    throw invalid(
      field,
      `An event cannot move from ${from} to ${to}` +
        (allowed.length ? ` (from ${from}: ${allowed.join(', ')})` : ` (${from} is final)`),
      to,
      { from, to, allowed },
    );
  }
  if (approvalRequired && from === 'scheduled' && to === 'published')
    throw invalid(
      field,
      `An event cannot move from scheduled to published before it is approved (approval required)`,
      to,
      {
        from,
        to,
        approval_required: true,
      },
    );
}
