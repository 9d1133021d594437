/**
 * Event commands of the calendar routes: create (one or many, taking places
 * under the calendar's event limit in the same transaction), update, bulk
 * update (one decision per event, all appended together), delete (giving the
 * place back), approve, record performance. Each runs the event decider
 * (domain/calendar/event.ts) on the event's stream.
 */
import { randomUUID } from 'node:crypto';
import { calendarEventDecider } from '../../domain/calendar/event';
import type { EventCommand, EventState, NewEventFields } from '../../domain/calendar/event-state';
import { calendarEventStream } from '../../domain/events/calendar';
import type { EventFields, EventStatus } from '../../domain/events/calendar';
import { eventLimit } from '../../domain/calendar/limits';
import { AppError, NotFoundError } from '../../domain/errors';
import type { Decider } from '../../domain/decider';
import { handleCommand, handleCommands, streamCommand } from '../../infra/eventstore/command';
import { EventMetadata, RecordedEvent } from '../../infra/eventstore';
import type { EventStore } from '../../infra/eventstore';
import { releaseEvents, reserveEvents } from '../../infra/calendar/capacity';
import { getUser } from '../../projections/identity';
import type { AppDeps } from '../kernel/types';
import type { CalendarAccess } from './access';

type Deps = Pick<AppDeps, 'store' | 'db'>;

export interface NewEvent {
  fields: NewEventFields;
  status?: 'draft' | 'scheduled' | 'generated';
}

/** The calendar owner's event limit (their plan, as the identity projection has it). */
export async function limitOf(d: Deps, ownerId: string): Promise<number> {
  return eventLimit((await getUser(d.db, ownerId))?.plan);
}

/** Creates events in one transaction; all or none (402 when the limit would be passed). */
export async function createEvents(
  d: Deps,
  cal: CalendarAccess,
  actor: string,
  items: NewEvent[],
  now: Date,
  meta: EventMetadata,
): Promise<{ ids: string[]; events: RecordedEvent[] }> {
  const limit = await limitOf(d, cal.calendar.owner_id);
  const ids = items.map(() => randomUUID());
  const creates = items.map((it, i): EventCommand => ({
    kind: 'create',
    event_id: ids[i],
    actor,
    now,
    calendar: cal.ctx,
    fields: it.fields,
    status: it.status,
    schedule_id: randomUUID(),
  }));
  // Validation errors before any place is taken (a pure decision, taken again when appending), then the places and
  // the events in one transaction.
  for (const c of creates) calendarEventDecider.decide(c, undefined);
  const commands = creates.map((command, i) =>
    streamCommand({ streamId: calendarEventStream(ids[i]), decider: calendarEventDecider, command, expect: 'new' }),
  );
  const { events } = await d.store.transaction(async (tx) => {
    await reserveEvents(tx, cal.calendar.calendar_id, items.length, limit);
    return handleCommands(tx, commands, { metadata: meta });
  });
  return { ids, events };
}

/** The event of the path, in this calendar, or 404. */
export function inCalendar(s: EventState | undefined, calendarId: string): EventState {
  if (!s || s.deleted || s.calendar_id !== calendarId) throw new NotFoundError('Event not found');
  return s;
}

/** Runs one decision on an event of the calendar (404 when it is another calendar's). */
export async function runEventCommand(
  d: Deps,
  cal: CalendarAccess,
  eventId: string,
  command: EventCommand,
  meta: EventMetadata,
): Promise<{ state: EventState; events: RecordedEvent[] }> {
  const r = await handleCommand(
    d.store,
    calendarEventStream(eventId),
    {
      ...calendarEventDecider,
      decide: (c, s) => {
        inCalendar(s, cal.calendar.calendar_id);
        return calendarEventDecider.decide(c, s);
      },
    },
    command,
    { metadata: meta },
  );
  return { state: r.state!, events: r.events };
}

export const updateCommand = (
  cal: CalendarAccess,
  actor: string,
  now: Date,
  changes: EventFields,
  status?: EventStatus,
  prefix?: string,
): EventCommand => ({
  kind: 'update',
  actor,
  now,
  calendar: cal.ctx,
  changes,
  ...(status !== undefined ? { status } : {}),
  schedule_id: randomUUID(),
  ...(prefix ? { field_prefix: prefix } : {}),
});

export async function deleteEvent(
  d: Deps,
  cal: CalendarAccess,
  eventId: string,
  actor: string,
  meta: EventMetadata,
): Promise<RecordedEvent[]> {
  return d.store.transaction(async (tx) => {
    const r = await handleCommand(
      tx,
      calendarEventStream(eventId),
      {
        ...calendarEventDecider,
        decide: (c, s) => {
          inCalendar(s, cal.calendar.calendar_id);
          return calendarEventDecider.decide(c, s);
        },
      },
      { kind: 'delete' as const, actor, calendar: cal.ctx },
      { metadata: meta },
    );
    await releaseEvents(tx, cal.calendar.calendar_id, 1);
    return r.events;
  });
}

export interface BulkItemResult {
  event_id: string;
  success: boolean;
  status?: string;
  error?: { code: string; message: string; details: Record<string, unknown> };
}

/**
 * One bulk update: each event's decision is taken on its own stream; the
 * events of every accepted decision are appended in one transaction with each
 * stream's expected version (a concurrent change to any of them reruns the
 * whole bulk). Refused events are reported with their error; the rest apply.
 */
export async function bulkUpdate(
  d: { store: EventStore },
  cal: CalendarAccess,
  eventIds: string[],
  command: (id: string) => EventCommand,
  errorCode: (e: AppError) => string,
  meta: EventMetadata,
): Promise<{ results: BulkItemResult[]; events: RecordedEvent[] }> {
  // An event of another calendar (or deleted) is refused like a decision: not found.
  const inThisCalendar: Decider<EventCommand, EventState | undefined> = {
    ...calendarEventDecider,
    decide: (c, s) => calendarEventDecider.decide(c, inCalendar(s, cal.calendar.calendar_id)),
  };
  const { outcomes, events } = await handleCommands(
    d.store,
    eventIds.map((id) =>
      streamCommand({ streamId: calendarEventStream(id), decider: inThisCalendar, command: command(id) }),
    ),
    { metadata: meta, partial: true },
  );
  const results = outcomes.map((o, i): BulkItemResult => {
    if (o.refused)
      return {
        event_id: eventIds[i],
        success: false,
        error: { code: errorCode(o.refused), message: o.refused.message, details: o.refused.details },
      };
    const before = o.state as EventState;
    return {
      event_id: eventIds[i],
      success: true,
      status: o.decided.reduce(calendarEventDecider.evolve, before)!.status,
    };
  });
  return { results, events };
}
