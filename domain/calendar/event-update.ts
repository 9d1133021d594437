/**
 * The update decision on a content event (fields and status; domain/calendar/event.ts): what changes, the status
 * move it asks for, an approval or publication it amounts to, and the timer brought in line.
 */
import type { DomainEvent } from '../events';
import type { EventFields, EventMetadataFields } from '../events/calendar';
import { invalid } from './errors';
import { checkMove } from './states';
import { approvalRequired, EventCommand, EventState } from './event-state';
import { checkFuture, ctxOf, normal, publishedEvent, ref, timerEvents } from './event-common';

export function decideUpdate(c: Extract<EventCommand, { kind: 'update' }>, s: EventState): DomainEvent[] {
  const p = c.field_prefix ?? '';
  const changes: EventFields = {};
  const f = c.changes;
  for (const k of ['title', 'description', 'content_type', 'platform', 'duration'] as const)
    if (f[k] !== undefined && f[k] !== s[k]) (changes as Record<string, unknown>)[k] = f[k];
  if (f.content !== undefined && JSON.stringify(f.content) !== JSON.stringify(s.content)) changes.content = f.content;
  if (f.metadata !== undefined) {
    const merged = { ...s.metadata, ...f.metadata };
    if (JSON.stringify(merged) !== JSON.stringify(s.metadata)) changes.metadata = merged;
  }
  if (f.scheduled_at !== undefined && normal(f.scheduled_at) !== normal(s.scheduled_at)) {
    checkFuture(f.scheduled_at, c.now, `${p}scheduled_at`);
    changes.scheduled_at = normal(f.scheduled_at) ?? null;
  }
  if (s.status === 'published') {
    const locked = Object.keys(changes).filter((k) => k !== 'metadata');
    if (locked.length)
      throw invalid(
        `${p}${locked[0]}`,
        `A published event cannot be changed (only its metadata): ${locked.join(', ')}`,
      );
  }
  const needsApproval = approvalRequired(c.calendar, {
    metadata: (changes.metadata as EventMetadataFields) ?? s.metadata,
  });
  let to = c.status ?? s.status;
  let reason: string | undefined;
  if (c.status !== undefined && c.status !== s.status) {
    if (c.status === 'failed') throw invalid(`${p}status`, 'failed is set by the publishing timer only', c.status);
    checkMove(s.status, c.status, `${p}status`, needsApproval);
  }
  // An approved event whose content changes needs approving again.
  const contentChanged = ['title', 'description', 'content', 'content_type', 'platform'].some((k) => k in changes);
  if (to === 'approved' && s.status === 'approved' && contentChanged && needsApproval && c.status === undefined) {
    to = 'scheduled';
    reason = 'content changed after approval';
  }
  const scheduledAt = changes.scheduled_at !== undefined ? changes.scheduled_at : s.scheduled_at;
  if (['scheduled', 'approved'].includes(to) && !scheduledAt)
    throw invalid(
      `${p}scheduled_at`,
      `A ${to} event needs scheduled_at (clear it only after moving the event to draft)`,
    );
  if (['scheduled', 'approved'].includes(to) && to !== s.status) {
    if (!scheduledAt) throw invalid(`${p}scheduled_at`, `An event needs scheduled_at to become ${to}`);
    checkFuture(scheduledAt, c.now, `${p}scheduled_at`);
  }
  const out: DomainEvent[] = [];
  const publish = to === 'published' && s.status !== 'published';
  // `PATCH status: approved` is an approval without comments: recorded as one, with the caller as approver.
  const approval = to === 'approved' && to !== s.status;
  const statusMove = to !== s.status && !publish && !approval ? { from: s.status, to } : undefined;
  if (Object.keys(changes).length || statusMove)
    out.push({
      type: 'CalendarEventUpdated',
      data: {
        ...ref(s),
        ...ctxOf(s),
        platform: changes.platform ?? s.platform,
        updated_by: c.actor,
        changes,
        ...(statusMove ? { status: statusMove } : {}),
        ...(reason ? { reason } : {}),
      },
    });
  if (approval)
    out.push({
      type: 'CalendarEventApprovalRecorded',
      data: {
        ...ref(s),
        ...ctxOf(s),
        platform: changes.platform ?? s.platform,
        approved: true,
        comments: '',
        approver_id: c.actor,
        approver_label: null,
        from: s.status,
        to: 'approved',
      },
    });
  const after = { ...s, ...(changes as Partial<EventState>), status: publish ? s.status : to };
  if (publish) {
    out.push(
      ...timerEvents(s, { status: 'published', scheduled_at: scheduledAt }, c.calendar, c.schedule_id, 'published'),
    );
    out.push(publishedEvent(after, c.now, c.actor, null, 'local', null));
  } else out.push(...timerEvents(s, { status: to, scheduled_at: scheduledAt }, c.calendar, c.schedule_id, 'updated'));
  return out;
}
