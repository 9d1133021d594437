/** Calendar webhook names and payloads from the catalogue's rules (Document 3 "Events"). */
import { buildPayload, SourceEvent, subscribableNames, webhookMessagesFor } from '../../../domain/webhooks/catalogue';

const meta = { eventId: 'ev-1', metadata: {}, recordedAt: '2030-01-01T10:00:00.000Z' };
const ids = { event_id: 'e1', calendar_id: 'c1', owner_id: 'owner' };

describe('calendar webhooks', () => {
  it('offers the five calendar names to the calendar family only', () => {
    expect(subscribableNames('calendar').sort()).toEqual([
      'calendar.analytics_ready',
      'event.created',
      'event.performance_updated',
      'event.published',
      'event.updated',
    ]);
    expect(subscribableNames('general')).not.toContain('event.created');
  });

  it('event.published: the documented payload, to the calendar owner', () => {
    const e = {
      ...meta,
      type: 'CalendarEventPublished',
      data: {
        ...ids,
        platform: 'profnet',
        published_at: '2030-01-01T10:00:00.000Z',
        scheduled_at: null,
        schedule_id: 's',
        published_by: 'timer',
        mode: 'local',
        external_id: null,
        from: 'scheduled',
      },
    } as SourceEvent;
    const r = webhookMessagesFor(e, {})!;
    expect(r.userId).toBe('owner');
    expect(r.messages.map((m) => m.name)).toEqual(['event.published']);
    const body = buildPayload(r.messages[0], 'd1', meta.recordedAt);
    expect(body).toEqual({
      event: 'event.published',
      id: 'd1',
      timestamp: meta.recordedAt,
      data: {
        calendar_id: 'c1',
        event_id: 'e1',
        platform: 'profnet',
        published_at: '2030-01-01T10:00:00.000Z',
        performance_initial: null,
        mode: 'local',
      },
    });
  });

  it('first figures: event.performance_updated and calendar.analytics_ready with performance_initial; later ones only the first', () => {
    const rec = (first: boolean) =>
      ({
        ...meta,
        type: 'CalendarEventPerformanceRecorded',
        data: {
          ...ids,
          platform: 'photonet',
          published_at: '2030-01-01T09:00:00.000Z',
          recorded_by: 'u',
          measured_at: meta.recordedAt,
          metrics: {},
          audience: {},
          audience_segment: null,
          content_type: 'story',
          first,
          performance_initial: { impressions: 10, engagements: 2 },
        },
      }) as unknown as SourceEvent;
    const a = webhookMessagesFor(rec(true), {})!;
    expect(a.messages.map((m) => m.name)).toEqual(['event.performance_updated', 'calendar.analytics_ready']);
    expect(a.messages[0].data.performance_initial).toEqual({ impressions: 10, engagements: 2 });
    expect(webhookMessagesFor(rec(false), {})!.messages.map((m) => m.name)).toEqual(['event.performance_updated']);
  });
});
