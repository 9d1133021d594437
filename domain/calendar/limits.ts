/**
 * Event-count limit of a calendar, by the calendar owner's plan
 * (docs/calendar.md "Limits"): every event that is not deleted counts,
 * whatever its status. Creating past it is 402 CALENDAR_FULL; deleting an
 * event frees its place. Enforced atomically in PostgreSQL
 * (infra/calendar/capacity.ts) in the transaction that appends the events.
 */
import type { PlanName } from '../plans';

export const EVENT_LIMITS: Record<PlanName, number> = {
  free: 100,
  basic: 1000,
  pro: 5000,
  enterprise: 50000,
};

export const eventLimit = (plan: PlanName | undefined): number => EVENT_LIMITS[plan ?? 'free'] ?? EVENT_LIMITS.free;
