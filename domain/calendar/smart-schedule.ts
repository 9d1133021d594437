/**
 * Smart scheduling: place events in the coming period to maximise expected
 * reach (timing model per platform, weighted by priority) subject to hard
 * constraints, with content-type balance as a soft goal.
 *
 * Hard constraints (never broken by any answer; property-tested):
 *   - candidate slots are whole local hours after now, within the item's
 *     flexibility window (low: 3 days, medium: 7 days, high: the whole period);
 *   - business_hours_only: inside the calendar's working hours, in its zone;
 *   - avoid_dates: not on these local dates;
 *   - max_per_day: at most this many events per local day, existing ones included;
 *   - min_spacing_hours: at least this far from every other placed or existing event;
 *   - respect_capacity: no more events than the calendar's event limit has room for.
 * Method: greedy placement (priority first, least flexible first) followed by
 * local improvement — single moves, pairwise swaps, and one-level ejection
 * chains that make room for an unplaced event — until no move improves the
 * objective. Events that still cannot be placed are reported with the number
 * of candidate slots each constraint ruled out.
 */
import type { TimingModel } from './timing';
import { local, localDate, minuteInWorkingHours, WorkingHours } from './time';

export type Priority = 'low' | 'medium' | 'high' | 'urgent';
export type Flexibility = 'low' | 'medium' | 'high';

export interface ScheduleItem {
  id: string;
  title: string;
  content_type: string;
  platform: string;
  priority: Priority;
  flexibility: Flexibility;
}

export interface Constraints {
  min_spacing_hours: number;
  max_per_day: number;
  business_hours_only: boolean;
  avoid_dates: string[];
}

export interface Goals {
  maximize_reach: boolean;
  balance_content_types: boolean;
  respect_capacity: boolean;
}

export interface ScheduleInput {
  items: ScheduleItem[];
  constraints: Constraints;
  goals: Goals;
  now: Date;
  period_days: number;
  timezone: string;
  working_hours: WorkingHours;
  /** Events already on the calendar in or near the period (they take spacing and daily capacity). */
  existing: { at: string; content_type: string }[];
  /** The timing model of a platform. */
  model(platform: string): TimingModel;
  /** Places left under the calendar's event limit (used when respect_capacity). */
  capacity_remaining: number;
}

export interface Placement {
  original_id: string;
  title: string;
  content_type: string;
  platform: string;
  priority: Priority;
  scheduled_at: string;
  confidence_score: number;
  expected_performance: { reach: number; engagement_rate: number };
}

export interface Unplaced {
  original_id: string;
  title: string;
  reason: string;
  /** Candidate slots of its window ruled out by each constraint (first failing constraint counted). */
  blocked_by: Record<string, number>;
}

export interface ScheduleResult {
  scheduled_events: Placement[];
  unscheduled_events: Unplaced[];
  optimization_summary: {
    total_reach_optimized: number;
    content_balance_score: number;
    capacity_utilization: number;
    method: string;
    improving_moves: number;
    period: { start: string; end: string; timezone: string };
  };
}

export const PRIORITY_WEIGHT: Record<Priority, number> = { urgent: 4, high: 3, medium: 2, low: 1 };
export const FLEX_HOURS: Record<Flexibility, number> = { low: 72, medium: 168, high: Infinity };
const HOUR = 3600_000;
const BALANCE_PENALTY = 0.25;

interface Slot {
  t: number;
  date: string;
  weekday: number;
  hour: number;
  inHours: boolean;
  avoided: boolean;
}

export function smartSchedule(input: ScheduleInput): ScheduleResult {
  const { constraints: c, goals } = input;
  const nowMs = input.now.getTime();
  const start = Math.ceil((nowMs + 1) / HOUR) * HOUR;
  const end = nowMs + input.period_days * 24 * HOUR;
  const avoid = new Set(c.avoid_dates);
  const slots: Slot[] = [];
  for (let t = start; t < end; t += HOUR) {
    // One zone conversion per slot (luxon is the costly part of scheduling).
    const l = local(t, input.timezone);
    const date = l.toISODate()!;
    slots.push({
      t,
      date,
      weekday: l.weekday,
      hour: l.hour,
      inHours: minuteInWorkingHours(l.hour * 60 + l.minute, input.working_hours),
      avoided: avoid.has(date),
    });
  }
  const existing = input.existing.map((e) => ({
    t: Date.parse(e.at),
    date: localDate(e.at, input.timezone),
    type: e.content_type,
  }));
  const items = input.items;
  const n = items.length;
  const capacity = goals.respect_capacity ? Math.max(0, input.capacity_remaining) : Infinity;

  // Value of each item in each slot: expected reach (or earliness when reach is not a goal) × priority weight.
  const value: number[][] = items.map((it) => {
    const m = input.model(it.platform);
    const w = PRIORITY_WEIGHT[it.priority];
    return slots.map(
      (s, i) => (goals.maximize_reach ? m.slot(s.weekday, s.hour).expected_reach : slots.length - i) * w,
    );
  });
  const meanValue = value.flat().reduce((a, b) => a + b, 0) / Math.max(1, n * slots.length);
  const windowOk = (i: number, s: number) => slots[s].t - nowMs <= FLEX_HOURS[items[i].flexibility] * HOUR;

  const assign: (number | null)[] = new Array(n).fill(null);
  const spacing = c.min_spacing_hours * HOUR;

  const existingPerDay = new Map<string, number>();
  for (const e of existing) existingPerDay.set(e.date, (existingPerDay.get(e.date) ?? 0) + 1);

  /** The first constraint slot s breaks for item i given the other placements, or null when it is allowed. */
  function broken(i: number, s: number): string | null {
    const slot = slots[s];
    if (!windowOk(i, s)) return 'flexibility_window';
    if (c.business_hours_only && !slot.inHours) return 'business_hours_only';
    if (slot.avoided) return 'avoid_dates';
    let sameDay = existingPerDay.get(slot.date) ?? 0;
    for (let j = 0; j < n; j++) if (j !== i && assign[j] !== null && slots[assign[j]!].date === slot.date) sameDay++;
    if (sameDay + 1 > c.max_per_day) return 'max_per_day';
    for (const e of existing) if (Math.abs(e.t - slot.t) < spacing) return 'min_spacing_hours';
    for (let j = 0; j < n; j++)
      if (j !== i && assign[j] !== null && Math.abs(slots[assign[j]!].t - slot.t) < spacing) return 'min_spacing_hours';
    return null;
  }
  const placedCount = () => assign.filter((a) => a !== null).length;

  /** Balance penalty item i would carry in slot s: same content type on the same local day. */
  function penalty(i: number, s: number): number {
    if (!goals.balance_content_types) return 0;
    const date = slots[s].date;
    let same = existing.filter((e) => e.date === date && e.type === items[i].content_type).length;
    for (let j = 0; j < n; j++)
      if (
        j !== i &&
        assign[j] !== null &&
        slots[assign[j]!].date === date &&
        items[j].content_type === items[i].content_type
      )
        same++;
    return same * BALANCE_PENALTY * meanValue;
  }
  const gain = (i: number, s: number) => value[i][s] - 2 * penalty(i, s);

  function bestSlot(i: number, among?: number[]): number | null {
    let best: number | null = null;
    let bestGain = -Infinity;
    for (const s of among ?? slots.keys()) {
      if (broken(i, s)) continue;
      const g = gain(i, s);
      if (g > bestGain) {
        bestGain = g;
        best = s;
      }
    }
    return best;
  }

  // Greedy: priority first, then the least flexible, then input order.
  const order = items
    .map((_, i) => i)
    .sort(
      (a, b) =>
        PRIORITY_WEIGHT[items[b].priority] - PRIORITY_WEIGHT[items[a].priority] ||
        FLEX_HOURS[items[a].flexibility] - FLEX_HOURS[items[b].flexibility] ||
        a - b,
    );
  for (const i of order) {
    if (placedCount() >= capacity) break;
    assign[i] = bestSlot(i);
  }

  // Local improvement.
  let moves = 0;
  for (let pass = 0; pass < 25; pass++) {
    let improved = false;
    for (const i of order) {
      if (assign[i] === null) continue;
      const cur = assign[i]!;
      const curGain = gain(i, cur);
      assign[i] = null;
      const s = bestSlot(i);
      if (s !== null && s !== cur && gain(i, s) > curGain + 1e-9) {
        assign[i] = s;
        moves++;
        improved = true;
      } else assign[i] = cur;
    }
    for (let x = 0; x < n; x++)
      for (let y = x + 1; y < n; y++) {
        const sx = assign[x];
        const sy = assign[y];
        if (sx === null || sy === null) continue;
        const before = gain(x, sx) + gain(y, sy);
        assign[x] = null;
        assign[y] = null;
        let ok = !broken(x, sy);
        if (ok) {
          assign[x] = sy;
          ok = !broken(y, sx);
        }
        if (ok) {
          assign[y] = sx;
          if (gain(x, sy) + gain(y, sx) > before + 1e-9) {
            moves++;
            improved = true;
            continue;
          }
        }
        assign[x] = sx;
        assign[y] = sy;
      }
    // Ejection chains: move one placed event elsewhere to make room for an unplaced one.
    for (const u of order) {
      if (assign[u] !== null || placedCount() >= capacity) continue;
      const direct = bestSlot(u);
      if (direct !== null) {
        assign[u] = direct;
        moves++;
        improved = true;
        continue;
      }
      outer: for (let p = 0; p < n; p++) {
        const sp = assign[p];
        if (sp === null) continue;
        // Moving p only frees slots on its day or within the spacing of its slot: u is tried there only.
        const freed = [...slots.keys()].filter(
          (k) => slots[k].date === slots[sp].date || Math.abs(slots[k].t - slots[sp].t) < Math.max(spacing, HOUR),
        );
        assign[p] = null;
        const uCould = freed.filter((k) => !broken(u, k));
        assign[p] = sp;
        if (!uCould.length) continue;
        for (let s = 0; s < slots.length; s++) {
          if (s === sp) continue;
          assign[p] = null;
          if (broken(p, s)) {
            assign[p] = sp;
            continue;
          }
          assign[p] = s;
          const su = bestSlot(u, uCould);
          if (su !== null) {
            assign[u] = su;
            moves++;
            improved = true;
            break outer;
          }
          assign[p] = sp;
        }
      }
    }
    if (!improved) break;
  }

  const scheduled: Placement[] = [];
  const unscheduled: Unplaced[] = [];
  items.forEach((it, i) => {
    const s = assign[i];
    if (s === null) {
      const blocked: Record<string, number> = {};
      for (let k = 0; k < slots.length; k++) {
        const why = broken(i, k);
        if (why) blocked[why] = (blocked[why] ?? 0) + 1;
      }
      const capped = placedCount() >= capacity;
      const inWindow = slots.length - (blocked.flexibility_window ?? 0);
      delete blocked.flexibility_window;
      const parts = Object.entries(blocked).map(([k, v]) => `${v} by ${k}`);
      unscheduled.push({
        original_id: it.id,
        title: it.title,
        reason: capped
          ? `the calendar has room for ${capacity} more event(s) under its event limit (respect_capacity)`
          : `none of the ${inWindow} hourly slots in its flexibility window (${it.flexibility}) meets every hard constraint: ${parts.join(', ') || 'no slots'}`,
        blocked_by: capped ? { capacity: 1, ...blocked } : blocked,
      });
      return;
    }
    const est = input.model(it.platform).slot(slots[s].weekday, slots[s].hour);
    scheduled.push({
      original_id: it.id,
      title: it.title,
      content_type: it.content_type,
      platform: it.platform,
      priority: it.priority,
      scheduled_at: new Date(slots[s].t).toISOString(),
      confidence_score: est.confidence,
      expected_performance: { reach: est.expected_reach, engagement_rate: est.engagement_rate },
    });
  });
  scheduled.sort((a, b) => a.scheduled_at.localeCompare(b.scheduled_at));

  // Balance: per local day, distinct content types / events (1 = no day repeats a type); mean over days.
  const byDay = new Map<string, string[]>();
  for (const p of scheduled) {
    const d = localDate(p.scheduled_at, input.timezone);
    byDay.set(d, [...(byDay.get(d) ?? []), p.content_type]);
  }
  const balance = byDay.size
    ? [...byDay.values()].reduce((a, types) => a + new Set(types).size / types.length, 0) / byDay.size
    : 1;
  const days = new Set(slots.filter((s) => !s.avoided).map((s) => s.date));
  const existingInPeriod = existing.filter((e) => days.has(e.date) && e.t >= start && e.t < end).length;
  const room = days.size * c.max_per_day;
  const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
  return {
    scheduled_events: scheduled,
    unscheduled_events: unscheduled,
    optimization_summary: {
      total_reach_optimized: scheduled.reduce((a, p) => a + p.expected_performance.reach, 0),
      content_balance_score: round(balance),
      capacity_utilization: room ? round(Math.min(1, (existingInPeriod + scheduled.length) / room)) : 0,
      method: 'greedy placement + local improvement (moves, swaps, ejection chains)',
      improving_moves: moves,
      period: {
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        timezone: input.timezone,
      },
    },
  };
}
