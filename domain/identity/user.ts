/**
 * Decisions on a user's stream (`user-<user_id>`): creation, an
 * administrator's plan change, and the subscription API's plan changes and
 * cancellation (rules in domain/subscription/state.ts).
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import type { PlanKey, UserRole } from '../events/identity';
import { decideCancel, decidePlanChange, subscriptionAt, SubscriptionView } from '../subscription/state';
import { evolveUser, UserState } from './state';

export interface UserAggregate {
  user: UserState | undefined;
  /** When the current plan started: creation or the last plan change (PlanChanged.started_at, else its recording time). */
  startedAt: string | undefined;
}

export type UserCommand =
  | { kind: 'create'; user_id: string; plan: PlanKey; role: UserRole; email?: string }
  /** An administrator sets the plan (CLI): no subscription rule applies. */
  | { kind: 'set_plan'; plan: PlanKey }
  /** Subscribe, upgrade or downgrade through the subscription API, at `now`. */
  | { kind: 'change_subscription'; plan: PlanKey; now: Date }
  | { kind: 'cancel_subscription'; now: Date };

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

export const userDecider: Decider<UserCommand, UserAggregate> = {
  initialState: { user: undefined, startedAt: undefined },
  evolve(s, e: Stored) {
    const user = evolveUser(s.user, e);
    let startedAt = s.startedAt;
    if (e.type === 'UserCreated') startedAt = e.recordedAt;
    else if (e.type === 'PlanChanged') startedAt = e.data.started_at ?? e.recordedAt;
    return { user, startedAt };
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
        return [{ type: 'PlanChanged', data: { user_id: u.user_id, plan: c.plan, previous_plan: u.plan } }];
      }
      case 'change_subscription': {
        const view = subscriptionOf(s, c.now);
        decidePlanChange(view, c.plan); // refuses a change to the plan that applies (409)
        return [
          {
            type: 'PlanChanged',
            data: {
              user_id: s.user!.user_id,
              plan: c.plan,
              previous_plan: view.effective.key,
              started_at: c.now.toISOString(),
            },
          },
        ];
      }
      case 'cancel_subscription': {
        const view = subscriptionOf(s, c.now);
        const { expires_at } = decideCancel(view, c.now);
        return [
          {
            type: 'SubscriptionCancelled',
            data: { user_id: s.user!.user_id, plan: view.plan.key, cancelled_at: c.now.toISOString(), expires_at },
          },
        ];
      }
    }
  },
};
