/**
 * Subscription commands: subscribe/upgrade/downgrade (PlanChanged) and cancel
 * (SubscriptionCancelled), decided on the user's stream by the user decider
 * (domain/identity/user.ts, rules of domain/subscription/state.ts) at the API
 * clock's time and appended with the expected version, so two concurrent
 * changes cannot both win (409). Marking an alert as read is decided on the
 * user's alert stream (domain/subscription/alerts.ts).
 */
import { alertStream } from '../../domain/events/alerts';
import type { PlanActor } from '../../domain/events/identity';
import type { PlanName } from '../../domain/plans';
import { alertDecider } from '../../domain/subscription/alerts';
import { decidePlanChange, PlanChangeKind } from '../../domain/subscription/state';
import { subscriptionOf } from '../../domain/identity';
import type { EventMetadata } from '../../infra/eventstore';
import { handleCommand } from '../../infra/eventstore/command';
import { IdentityDeps, runUserCommand, Written } from '../identity/commands';

/** A plan change by `actor` (the user, or an administrator); a user's own upgrade is refused (402). */
export async function changeSubscription(
  d: IdentityDeps,
  userId: string,
  plan: PlanName,
  now: Date,
  actor: PlanActor,
  meta: EventMetadata = {},
): Promise<Written<{ kind: PlanChangeKind; from: string; to: string }>> {
  const r = await runUserCommand(d.store, userId, { kind: 'change_subscription', plan, now, actor }, meta);
  const view = subscriptionOf(r.state, now);
  return {
    value: { kind: decidePlanChange(view, plan, actor.kind), from: view.effective.name, to: plan },
    events: r.events,
  };
}

/**
 * The plan a verified billing event sets (api/subscription/billing.ts): applied once per event id. `changed` is
 * false when there was nothing to write (a redelivery, or the plan applies already).
 */
export async function applyBillingChange(
  d: IdentityDeps,
  userId: string,
  plan: PlanName,
  eventId: string,
  now: Date,
  meta: EventMetadata = {},
): Promise<Written<{ changed: boolean; from: string }>> {
  const r = await runUserCommand(d.store, userId, { kind: 'billing_change', plan, now, event_id: eventId }, meta);
  return {
    value: { changed: r.events.length > 0, from: subscriptionOf(r.state, now).effective.name },
    events: r.events,
  };
}

export async function cancelSubscription(
  d: IdentityDeps,
  userId: string,
  now: Date,
  actor: PlanActor,
  meta: EventMetadata = {},
): Promise<Written<{ plan: string; expires_at: string }>> {
  const r = await runUserCommand(d.store, userId, { kind: 'cancel_subscription', now, actor }, meta);
  const cancelled = r.decided[0];
  const expires_at = cancelled.type === 'SubscriptionCancelled' ? cancelled.data.expires_at : '';
  return { value: { plan: subscriptionOf(r.state, now).plan.name, expires_at }, events: r.events };
}

/** Marks the user's alert as read: 404 when it is not one of theirs, nothing to write when it is read already. */
export async function markAlertRead(
  d: IdentityDeps,
  userId: string,
  alertId: number,
  meta: EventMetadata = {},
): Promise<Written<null>> {
  const r = await handleCommand(
    d.store,
    alertStream(userId),
    alertDecider,
    { kind: 'mark_read', user_id: userId, alert_id: alertId },
    { metadata: { ...meta, user_id: userId } },
  );
  return { value: null, events: r.events };
}
