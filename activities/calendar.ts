/**
 * Calendar activities: publishing an event when its timer fires, and the
 * metered AI generation of calendar content (activities/calendar-generate.ts).
 *
 * publishDueEvent decides on the event's stream with the event decider's
 * `publish_due` command: it publishes only while the event still carries the
 * timer's schedule id in `scheduled`/`approved`, so a retried attempt, a timer
 * that was moved, or one that fired after the worker came back late publishes
 * at most once. With a platform adapter the post is sent first (idempotency
 * key = the schedule id); without one the event is marked published locally.
 */
import { calendarCtx, calendarDecider } from '../domain/calendar/calendar';
import { calendarEventDecider } from '../domain/calendar/event';
import type { CalendarCtx } from '../domain/calendar/event-state';
import { calendarEventStream, calendarStream } from '../domain/events/calendar';
import type { EventStore } from '../infra/eventstore';
import { handleCommand } from '../infra/eventstore/command';
import type { PlatformPublishers } from '../infra/calendar/platforms';
import type { AiGateway } from '../infra/ai/completion';
import { currentWorkflowId } from './tasks';
import { createCalendarGenerateActivities } from './calendar-generate';

export interface CalendarActivityDeps {
  store: EventStore;
  platforms?: PlatformPublishers;
  /** The AI gateway (metered) for generation; absent: generation activities are not usable. */
  gateway?: AiGateway;
  now?: () => Date;
}

export interface PublishInput {
  eventId: string;
  calendarId: string;
  ownerId: string;
  scheduleId: string;
  scheduledAt: string;
}

/** A publication that failed for good: the event moves to `failed` with this code (PLATFORM_ERROR) and reason. */
export interface PublishFailureInput extends PublishInput {
  code: string;
  reason: string;
}

export interface PublishOutcome {
  outcome: 'published' | 'failed' | 'skipped';
  /** Why: the failure code, or what made the timer stale. */
  reason?: string;
  published_at?: string;
  mode?: 'local' | 'platform';
}

export function createCalendarActivities(deps: CalendarActivityDeps) {
  const now = deps.now ?? (() => new Date());
  /** The calendar as the publish decision needs it; undefined when it was deleted. */
  const calendarOf = async (calendarId: string): Promise<CalendarCtx | undefined> => {
    const cal = (await deps.store.aggregateStream(calendarStream(calendarId), calendarDecider.evolve, undefined)).state;
    return cal && !cal.deleted ? calendarCtx(cal) : undefined;
  };
  return {
    ...createCalendarGenerateActivities(deps),
    async publishDueEvent(input: PublishInput): Promise<PublishOutcome> {
      const ctx = await calendarOf(input.calendarId);
      const stream = calendarEventStream(input.eventId);
      const { state } = await deps.store.aggregateStream(stream, calendarEventDecider.evolve, undefined);
      if (!state || state.deleted || state.schedule_id !== input.scheduleId)
        return { outcome: 'skipped', reason: 'the timer was moved or stopped' };
      let mode: 'local' | 'platform' = 'local';
      let externalId: string | null = null;
      const adapter = deps.platforms?.[state.platform];
      if (adapter && ctx && ctx.status === 'active' && ctx.settings.auto_publish) {
        const r = await adapter.publish({
          event_id: state.event_id,
          calendar_id: state.calendar_id,
          platform: state.platform,
          title: state.title,
          content: state.content,
          idempotency_key: `calendar-publish-${input.scheduleId}`,
        });
        mode = 'platform';
        externalId = r.external_id;
      }
      const r = await handleCommand(
        deps.store,
        stream,
        calendarEventDecider,
        {
          kind: 'publish_due',
          schedule_id: input.scheduleId,
          now: now(),
          calendar: ctx,
          mode,
          external_id: externalId,
        },
        { metadata: { user_id: input.ownerId, workflow_id: currentWorkflowId() } },
      );
      const published = r.events.find((e) => e.type === 'CalendarEventPublished');
      if (published?.type === 'CalendarEventPublished')
        return { outcome: 'published', published_at: published.data.published_at, mode };
      const failed = r.events.find((e) => e.type === 'CalendarEventPublishFailed');
      if (failed?.type === 'CalendarEventPublishFailed') return { outcome: 'failed', reason: failed.data.code };
      return { outcome: 'skipped', reason: r.events.length ? 'the calendar no longer publishes' : 'already handled' };
    },

    /**
     * Records that the timer's publication failed for good (the adapter's last attempt failed, or it refused the
     * post): the same `publish_due` decision with a failure, so it applies only while the event still carries the
     * timer's schedule id — the event moves to `failed` (CalendarEventPublishFailed: `event.updated` webhook with
     * `status: failed` and the code) and its timer is disarmed.
     */
    async recordPublishFailure(input: PublishFailureInput): Promise<PublishOutcome> {
      const r = await handleCommand(
        deps.store,
        calendarEventStream(input.eventId),
        calendarEventDecider,
        {
          kind: 'publish_due',
          schedule_id: input.scheduleId,
          now: now(),
          calendar: await calendarOf(input.calendarId),
          mode: 'platform',
          external_id: null,
          failure: { code: input.code, reason: input.reason },
        },
        { metadata: { user_id: input.ownerId, workflow_id: currentWorkflowId() } },
      );
      const failed = r.events.find((e) => e.type === 'CalendarEventPublishFailed');
      if (failed?.type === 'CalendarEventPublishFailed') return { outcome: 'failed', reason: failed.data.code };
      return { outcome: 'skipped', reason: r.events.length ? 'the calendar no longer publishes' : 'already handled' };
    },
  };
}

export type CalendarActivities = ReturnType<typeof createCalendarActivities>;
