/**
 * An event answered from its folded stream (the projection not caught up within the bound: api/calendar/events.ts)
 * says its approval, publication and failure exactly as the projection's row does: the same fields, the same
 * values — before, the folded answer named the times `at` and always sent `publication: null`.
 */
import { calendarEventDecider } from '../../../domain/calendar/event';
import type { EventState } from '../../../domain/calendar/event-state';
import { calendarsProjection } from '../../../projections/calendars';
import { eventStateView } from '../../../api/calendar/views';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const ref = { calendar_id: 'c1', event_id: 'e1', owner_id: 'u1' };
const created = {
  type: 'CalendarEventCreated',
  recordedAt: '2030-01-01T09:00:00.000Z',
  data: {
    ...ref,
    title: 'Launch post',
    description: '',
    content_type: 'post',
    platform: 'photonet',
    scheduled_at: '2030-01-02T09:00:00.000Z',
    duration: 0,
    content: {},
    metadata: {},
    status: 'draft',
    created_by: 'u1',
  },
};
const approved = {
  type: 'CalendarEventApprovalRecorded',
  recordedAt: '2030-01-01T10:00:00.000Z',
  data: {
    ...ref,
    platform: 'photonet',
    published_at: null,
    approved: true,
    comments: 'fine',
    approver_id: 'u2',
    approver_label: 'Editor',
    from: 'pending_approval',
    to: 'approved',
  },
};
const published = {
  type: 'CalendarEventPublished',
  recordedAt: '2030-01-02T09:00:01.000Z',
  data: {
    ...ref,
    platform: 'photonet',
    published_at: '2030-01-02T09:00:00.000Z',
    scheduled_at: '2030-01-02T09:00:00.000Z',
    schedule_id: 's1',
    published_by: 'timer',
    mode: 'local',
    external_id: null,
    from: 'approved',
  },
};
const failed = {
  type: 'CalendarEventPublishFailed',
  recordedAt: '2030-01-02T09:00:02.000Z',
  data: {
    ...ref,
    platform: 'photonet',
    published_at: null,
    code: 'PLATFORM_ERROR',
    reason: 'refused',
    from: 'approved',
  },
};

/** What the projection writes for an event (its handler's `set`). */
const projected = (e: Any) => {
  const changes = (calendarsProjection.handlers as Any)[e.type](e) as { set?: Record<string, unknown> }[];
  return Object.assign({}, ...changes.map((c) => c.set ?? {}));
};
const fold = (...events: Any[]) =>
  events.reduce<EventState | undefined>((s, e) => calendarEventDecider.evolve(s, e), undefined)!;

describe('an event folded from its stream reads as the projection writes it', () => {
  it('approval and publication', () => {
    const view = eventStateView(fold(created, approved, published), published.recordedAt);
    expect(view.approval).toEqual(projected(approved).approval);
    expect(view.publication).toEqual(projected(published).publication);
    expect(view.publication).toMatchObject({ mode: 'local', published_by: 'timer', schedule_id: 's1' });
  });

  it('failure', () => {
    const view = eventStateView(fold(created, approved, failed), failed.recordedAt);
    expect(view.failure).toEqual(projected(failed).failure);
    expect(view.publication).toBeNull();
  });
});
