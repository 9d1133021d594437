/** Calendar time rules in IANA zones across DST changes, and the calendar decider's access rules. */
import { calendarDecider, requireAccess } from '../../../domain/calendar/calendar';
import { inWorkingHours, periodKey, upcomingWindow } from '../../../domain/calendar/time';
import type { DomainEvent } from '../../../domain/events';
import { NotFoundError, PermissionError, ValidationError } from '../../../domain/errors';

describe('calendar time', () => {
  it('the upcoming window is 7 local days: 167 hours over a spring-forward change, 169 over a fall-back', () => {
    const spring = upcomingWindow(new Date('2030-03-28T12:00:00Z'), 'Europe/Berlin');
    expect(spring.to).toBe('2030-04-03T22:00:00.000Z'); // local midnight of 4 April, CEST
    const fall = upcomingWindow(new Date('2030-10-24T12:00:00Z'), 'America/New_York');
    expect(fall.to).toBe('2030-10-31T04:00:00.000Z'); // local midnight of 31 October, still EDT
    const across = upcomingWindow(new Date('2030-10-30T12:00:00Z'), 'America/New_York');
    expect(across.to).toBe('2030-11-06T05:00:00.000Z'); // EST after the change on 3 November: 169 hours
  });

  it('working hours and periods follow local time on both sides of a DST change', () => {
    const wh = { start: '09:00', end: '17:00' };
    // 08:30 UTC is 09:30 CET in March and 10:30 CEST in April.
    expect(inWorkingHours('2030-03-29T08:30:00Z', 'Europe/Berlin', wh)).toBe(true);
    expect(inWorkingHours('2030-04-01T15:30:00Z', 'Europe/Berlin', wh)).toBe(false); // 17:30 CEST
    expect(inWorkingHours('2030-03-29T15:30:00Z', 'Europe/Berlin', wh)).toBe(true); // 16:30 CET
    expect(inWorkingHours('2030-01-01T23:30:00Z', 'UTC', { start: '22:00', end: '02:00' })).toBe(true);
    // 23:30 UTC on 30 March is already 31 March in Berlin; the ISO week starts on Monday.
    expect(periodKey('2030-03-30T23:30:00Z', 'Europe/Berlin', 'day')).toBe('2030-03-31');
    expect(periodKey('2030-03-31T12:00:00Z', 'Europe/Berlin', 'week')).toBe('2030-03-25');
    expect(periodKey('2030-03-31T23:30:00Z', 'Asia/Tokyo', 'month')).toBe('2030-04');
  });
});

describe('calendar decider', () => {
  const created = calendarDecider.decide(
    {
      kind: 'create',
      calendar_id: 'c',
      owner_id: 'o',
      name: 'N',
      timezone: 'Asia/Kolkata',
      settings: { approval_workflow: true },
    },
    undefined,
  );
  const fold = (events: DomainEvent[], s = calendarDecider.initialState) => events.reduce(calendarDecider.evolve, s);
  const cal = fold(created)!;

  it('creates with defaults, merged settings and a checked zone', () => {
    expect(cal.settings).toEqual({
      default_platform: 'multi',
      working_hours: { start: '09:00', end: '17:00' },
      auto_publish: true,
      approval_workflow: true,
    });
    expect(() =>
      calendarDecider.decide(
        { kind: 'create', calendar_id: 'x', owner_id: 'o', name: 'N', timezone: 'Nowhere/City' },
        undefined,
      ),
    ).toThrow(ValidationError);
  });

  it('shares grant role flags with overrides; only the owner manages; revocation removes access', () => {
    const shared = fold(
      calendarDecider.decide(
        { kind: 'share', actor: 'o', user_id: 'v', role: 'viewer', permissions: { view_analytics: true } },
        cal,
      ),
      cal,
    )!;
    expect(requireAccess(shared, 'v', 'view_analytics').role).toBe('viewer');
    expect(() => requireAccess(shared, 'v', 'create_events')).toThrow(PermissionError);
    expect(() => requireAccess(shared, 'x', 'view')).toThrow(NotFoundError);
    expect(() => calendarDecider.decide({ kind: 'update', actor: 'v', name: 'hijack' }, shared)).toThrow(
      PermissionError,
    );
    expect(() => calendarDecider.decide({ kind: 'share', actor: 'o', user_id: 'o', role: 'editor' }, shared)).toThrow(
      ValidationError,
    );
    const revoked = fold(calendarDecider.decide({ kind: 'revoke_share', actor: 'o', user_id: 'v' }, shared), shared)!;
    expect(() => requireAccess(revoked, 'v', 'view')).toThrow(NotFoundError);
    const archived = fold(calendarDecider.decide({ kind: 'update', actor: 'o', status: 'archived' }, cal), cal)!;
    expect(() => calendarDecider.decide({ kind: 'share', actor: 'o', user_id: 'v', role: 'viewer' }, archived)).toThrow(
      /archived/,
    );
    expect(calendarDecider.decide({ kind: 'update', actor: 'o', name: 'N' }, cal)).toEqual([]);
  });
});
