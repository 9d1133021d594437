/**
 * Decisions on a user's stream (`user-<user_id>`): creation, an
 * administrator's plan change, and the subscription API's plan changes and
 * cancellation (rules in domain/subscription/state.ts).
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import type { PlanActor, PlanKey, UserRole } from '../events/identity';
import { decideCancel, decidePlanChange, subscriptionAt, SubscriptionView } from '../subscription/state';
import { evolveUser, UserState } from './state';

export interface UserAggregate {
  user: UserState | undefined;
  /** When the current plan started: creation or the last plan change (PlanChanged.started_at, else its recording time). */
  startedAt: string | undefined;
  /** Ids of the billing provider's events already applied (a redelivered event changes nothing). */
  billingEvents: readonly string[];
}

export type UserCommand =
  | { kind: 'create'; user_id: string; plan: PlanKey; role: UserRole; email?: string }
  /** An operator sets the plan at the console (CLI): no subscription rule applies. */
  | { kind: 'set_plan'; plan: PlanKey; actor: PlanActor }
  /** Subscribe, upgrade or downgrade through the subscription API, at `now`; only MAY_RAISE actors may upgrade. */
  | { kind: 'change_subscription'; plan: PlanKey; now: Date; actor: PlanActor }
  /**
   * The billing provider's verified event sets the plan (a paid checkout, or a subscription it ended): applied once
   * per event id, and nothing to write when the plan already applies (the provider retries; an admin may have been
   * first).
   */
  | { kind: 'billing_change'; plan: PlanKey; now: Date; event_id: string }
  | { kind: 'cancel_subscription'; now: Date; actor: PlanActor };

/** The user's subscription at `now` (404 when the user does not exist). */
export function subscriptionOf(s: UserAggregate, now: Date): SubscriptionView {
  if (!s.user) throw new NotFoundError('User not found');
  return subscriptionAt(
    {
      user_id: s.user.user_id,
      plan: s.user.plan,
      started_at: new Date(s.startedAt!).toISOString(),
      ends_at: s.user.ends_at ?? null,
    },
    now,
  );
}

function existing(s: UserAggregate): UserState {
  if (!s.user) throw new NotFoundError('User not found');
  return s.user;
}

/** A plan change at `now` by `actor`, from the plan that applies now (subscription API, admin, billing). */
function planChanged(
  s: UserAggregate,
  view: SubscriptionView,
  plan: PlanKey,
  now: Date,
  actor: PlanActor,
  extra: { billing_event_id?: string } = {},
): DomainEvent {
  return {
    type: 'PlanChanged',
    data: {
      user_id: existing(s).user_id,
      plan,
      previous_plan: view.effective.key,
      started_at: now.toISOString(),
      changed_by: actor,
      ...extra,
    },
  };
}

export const userDecider: Decider<UserCommand, UserAggregate> = {
  initialState: { user: undefined, startedAt: undefined, billingEvents: [] },
  evolve(s, e: Stored) {
    const user = evolveUser(s.user, e);
    let { startedAt, billingEvents } = s;
    if (e.type === 'UserCreated') startedAt = e.recordedAt;
    else if (e.type === 'PlanChanged') {
      startedAt = e.data.started_at ?? e.recordedAt;
      if (e.data.billing_event_id) billingEvents = [...billingEvents, e.data.billing_event_id];
    }
    return { user, startedAt, billingEvents };
  },
  decide(c, s): DomainEvent[] {
    switch (c.kind) {
      case 'create':
        if (s.user) throw new ConflictError('user id already in use');
        return [
          {
            type: 'UserCreated',
            data: { user_id: c.user_id, plan: c.plan, role: c.role, ...(c.email ? { email: c.email } : {}) },
          },
        ];
      case 'set_plan': {
        const u = existing(s);
        return [
          {
            type: 'PlanChanged',
            data: { user_id: u.user_id, plan: c.plan, previous_plan: u.plan, changed_by: c.actor },
          },
        ];
      }
      case 'change_subscription': {
        const view = subscriptionOf(s, c.now);
        decidePlanChange(view, c.plan, c.actor.kind); // 409 for the plan that applies, 402 for a user's own upgrade
        return [planChanged(s, view, c.plan, c.now, c.actor)];
      }
      case 'billing_change': {
        const view = subscriptionOf(s, c.now);
        if (s.billingEvents.includes(c.event_id)) return [];
        if (view.status === 'active' && view.effective.key === c.plan) return [];
        return [
          planChanged(s, view, c.plan, c.now, { kind: 'billing', id: c.event_id }, { billing_event_id: c.event_id }),
        ];
      }
      case 'cancel_subscription': {
        const view = subscriptionOf(s, c.now);
        const { expires_at } = decideCancel(view, c.now);
        return [
          {
            type: 'SubscriptionCancelled',
            data: {
              user_id: s.user!.user_id,
              plan: view.plan.key,
              cancelled_at: c.now.toISOString(),
              expires_at,
              changed_by: c.actor,
            },
          },
        ];
      }
    }
  },
};
