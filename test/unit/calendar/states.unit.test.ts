/** The event state machine and the event decider: allowed moves, refused moves naming both states, approvals, timers. */
import { calendarEventDecider } from '../../../domain/calendar/event';
import type { CalendarCtx, EventCommand, EventState } from '../../../domain/calendar/event-state';
import { canMove, EVENT_STATUSES, MOVES } from '../../../domain/calendar/states';
import type { DomainEvent } from '../../../domain/events';
import { ValidationError } from '../../../domain/errors';
import { DEFAULT_SETTINGS } from '../../../domain/calendar/calendar';

const NOW = new Date('2030-01-01T10:00:00Z');
const LATER = '2030-01-02T10:00:00.000Z';
const cal = (over: Partial<CalendarCtx['settings']> = {}): CalendarCtx => ({
  calendar_id: 'c1',
  owner_id: 'owner',
  timezone: 'Europe/Berlin',
  settings: { ...DEFAULT_SETTINGS, ...over },
  status: 'active',
});

const fold = (events: DomainEvent[], s?: EventState) => events.reduce(calendarEventDecider.evolve, s);

function created(status: 'draft' | 'scheduled' | 'generated', c = cal(), scheduled_at: string | undefined = LATER) {
  const events = calendarEventDecider.decide(
    {
      kind: 'create',
      event_id: 'e1',
      actor: 'owner',
      now: NOW,
      calendar: c,
      fields: { title: 'T', content_type: 'social_post', platform: 'profnet', scheduled_at },
      status,
      schedule_id: 's0',
    },
    undefined,
  );
  return { events, state: fold(events)! };
}

const update = (s: EventState, status: EventState['status'], c = cal(), extra: Partial<EventCommand> = {}) =>
  calendarEventDecider.decide(
    {
      kind: 'update',
      actor: 'owner',
      now: NOW,
      calendar: c,
      changes: {},
      status,
      schedule_id: 's1',
      ...extra,
    } as EventCommand,
    s,
  );

/** A state in `status`, reached through allowed moves. */
function stateIn(status: EventState['status']): EventState {
  const base = created('scheduled').state;
  if (status === 'scheduled') return base;
  if (status === 'generated') return created('generated').state;
  if (status === 'failed')
    return fold(
      [
        {
          type: 'CalendarEventPublishFailed',
          data: {
            event_id: 'e1',
            calendar_id: 'c1',
            owner_id: 'owner',
            platform: 'profnet',
            published_at: null,
            schedule_id: 's0',
            code: 'X',
            reason: 'x',
            from: 'scheduled',
          },
        },
      ],
      base,
    )!;
  return fold(update(base, status), base)!;
}

describe('event state machine', () => {
  it('every move in the table is accepted and every other is refused naming both states', () => {
    for (const from of EVENT_STATUSES) {
      const s = stateIn(from);
      expect(s.status).toBe(from);
      for (const to of EVENT_STATUSES) {
        if (to === from || to === 'failed') continue;
        if (canMove(from, to)) {
          const out = fold(update(s, to), s)!;
          expect(out.status).toBe(to);
        } else {
          let err: unknown;
          try {
            update(s, to);
          } catch (e) {
            err = e;
          }
          expect(err).toBeInstanceOf(ValidationError);
          expect((err as Error).message).toContain(`from ${from} to ${to}`);
          expect((err as ValidationError).details).toMatchObject({ from, to });
        }
      }
    }
    expect(MOVES.published).toEqual([]);
  });

  it('failed is set only by the timer', () => {
    expect(() => update(stateIn('scheduled'), 'failed')).toThrow(/timer/);
  });

  it('with approval_workflow, scheduled → published is refused until approved', () => {
    const c = cal({ approval_workflow: true });
    const s = created('scheduled', c).state;
    expect(() => update(s, 'published', c)).toThrow(/before it is approved/);
    const approved = fold(
      calendarEventDecider.decide(
        {
          kind: 'approve',
          actor: 'boss',
          now: NOW,
          calendar: c,
          approved: true,
          comments: 'ok',
          approver_label: 'Boss',
          schedule_id: 's2',
        },
        s,
      ),
      s,
    )!;
    expect(approved.status).toBe('approved');
    expect(approved.approval).toMatchObject({ approved: true, comments: 'ok', approver_id: 'boss' });
    expect(fold(update(approved, 'published', c), approved)!.status).toBe('published');
  });

  it('PATCH status approved records an approval by the caller (no comments), with any field changes', () => {
    const c = cal({ approval_workflow: true });
    const s = created('scheduled', c).state;
    const events = update(s, 'approved', c, { actor: 'editor-1', changes: { title: 'New title' } });
    expect(events.map((e) => e.type)).toContain('CalendarEventApprovalRecorded');
    const updated = events.find((e) => e.type === 'CalendarEventUpdated');
    expect(updated?.type === 'CalendarEventUpdated' && updated.data.status).toBeFalsy();
    const after = fold(events, s)!;
    expect([after.status, after.title]).toEqual(['approved', 'New title']);
    expect(after.approval).toMatchObject({
      approved: true,
      comments: '',
      approver_id: 'editor-1',
      approver_label: null,
    });
    expect(fold(update(after, 'published', c), after)!.status).toBe('published');
  });

  it('a rejection moves the event back to draft with the comments and stops its timer', () => {
    const s = created('scheduled').state;
    expect(s.schedule_id).toBe('s0');
    const events = calendarEventDecider.decide(
      {
        kind: 'approve',
        actor: 'boss',
        now: NOW,
        calendar: cal(),
        approved: false,
        comments: 'too long',
        approver_label: null,
        schedule_id: 's2',
      },
      s,
    );
    const after = fold(events, s)!;
    expect(after.status).toBe('draft');
    expect(after.approval?.comments).toBe('too long');
    expect(after.schedule_id).toBeNull();
    expect(events.map((e) => e.type)).toContain('CalendarEventUnscheduled');
  });

  it('scheduling in the past is refused with field, provided value and current time', () => {
    let err: ValidationError | undefined;
    try {
      created('scheduled', cal(), '2029-12-31T00:00:00Z');
    } catch (e) {
      err = e as ValidationError;
    }
    expect(err?.field).toBe('scheduled_at');
    expect(err?.issues[0].provided_value).toBe('2029-12-31T00:00:00Z');
    expect(err?.details.current_time).toBe(NOW.toISOString());
  });

  it('rescheduling re-arms the timer under a new schedule id; cancelling disarms it', () => {
    const s = created('scheduled').state;
    const moved = calendarEventDecider.decide(
      {
        kind: 'update',
        actor: 'o',
        now: NOW,
        calendar: cal(),
        changes: { scheduled_at: '2030-01-03T10:00:00Z' },
        schedule_id: 'sN',
      },
      s,
    );
    expect(moved.map((e) => e.type)).toEqual([
      'CalendarEventUpdated',
      'CalendarEventUnscheduled',
      'CalendarEventScheduled',
    ]);
    const after = fold(moved, s)!;
    expect([after.schedule_id, after.timer_at]).toEqual(['sN', '2030-01-03T10:00:00.000Z']);
    const cancelled = fold(update(after, 'cancelled'), after)!;
    expect(cancelled.schedule_id).toBeNull();
  });

  it('no timer when the calendar does not publish automatically', () => {
    expect(created('scheduled', cal({ auto_publish: false })).state.schedule_id).toBeNull();
  });

  it('the timer publishes once, only under its own schedule id; unapproved events fail', () => {
    const s = created('scheduled').state;
    const due = (st: EventState, id: string, c = cal()) =>
      calendarEventDecider.decide(
        { kind: 'publish_due', schedule_id: id, now: NOW, calendar: c, mode: 'local', external_id: null },
        st,
      );
    expect(due(s, 'stale')).toEqual([]);
    const published = fold(due(s, 's0'), s)!;
    expect(published.status).toBe('published');
    expect(due(published, 's0')).toEqual([]);
    const c = cal({ approval_workflow: true });
    const pending = created('scheduled', c).state;
    const failed = fold(due(pending, 's0', c), pending)!;
    expect([failed.status, failed.failure?.code]).toEqual(['failed', 'APPROVAL_REQUIRED']);
  });

  it('a publication that failed for good moves the timed event to failed with its code, only for its own timer', () => {
    const s = created('scheduled').state;
    const fail = (st: EventState, id: string) =>
      calendarEventDecider.decide(
        {
          kind: 'publish_due',
          schedule_id: id,
          now: NOW,
          calendar: cal(),
          mode: 'platform',
          external_id: null,
          failure: { code: 'PLATFORM_ERROR', reason: 'publishing failed: VENDOR_REQUEST_REJECTED: refused' },
        },
        st,
      );
    expect(fail(s, 'stale')).toEqual([]);
    const events = fail(s, 's0');
    expect(events.map((e) => e.type)).toEqual(['CalendarEventUnscheduled', 'CalendarEventPublishFailed']);
    const failed = fold(events, s)!;
    expect([failed.status, failed.failure?.code, failed.schedule_id]).toEqual(['failed', 'PLATFORM_ERROR', null]);
    expect(failed.failure?.reason).toMatch(/VENDOR_REQUEST_REJECTED/);
    // Already failed (or published): a late failure record decides nothing.
    expect(fail(failed, 's0')).toEqual([]);
  });

  it('a published event keeps its content; performance only for published events', () => {
    const s = stateIn('published');
    expect(() =>
      calendarEventDecider.decide(
        { kind: 'update', actor: 'o', now: NOW, calendar: cal(), changes: { title: 'X' }, schedule_id: 'x' },
        s,
      ),
    ).toThrow(/published event cannot be changed/);
    const metrics = {
      impressions: 100,
      reach: 90,
      engagements: 5,
      likes: 3,
      comments: 1,
      shares: 1,
      saves: 0,
      clicks: 2,
    };
    const rec = (st: EventState) =>
      calendarEventDecider.decide(
        {
          kind: 'record_performance',
          actor: 'o',
          now: NOW,
          metrics,
          measured_at: NOW.toISOString(),
          audience: {},
          audience_segment: null,
        },
        st,
      );
    const first = rec(s);
    expect(first[0]).toMatchObject({
      data: { first: true, performance_initial: { impressions: 100, engagements: 5 } },
    });
    expect(rec(fold(first, s)!)[0]).toMatchObject({ data: { first: false } });
    expect(() => rec(stateIn('scheduled'))).toThrow(/published events only/);
  });
});
