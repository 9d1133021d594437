/**
 * Subscription commands: subscribe/upgrade/downgrade (PlanChanged) and cancel
 * (SubscriptionCancelled), on the user's identity stream. Each folds the
 * stream (the event store decides, not the projection), applies the pure rule
 * of domain/subscription/state.ts at the API clock's time, and appends with
 * the expected version, so two concurrent changes cannot both win (409).
 */
import { NotFoundError } from '../../domain/errors';
import { userStream } from '../../domain/events/identity';
import { foldUser } from '../../domain/identity';
import type { PlanName } from '../../domain/plans';
import { decideCancel, decidePlanChange, PlanChangeKind, SubscriptionRecord, subscriptionAt, SubscriptionView } from '../../domain/subscription/state';
import type { EventMetadata, RecordedEvent } from '../../infra/eventstore/port';
import type { IdentityDeps, Written } from '../identity/commands';

type UserEvents = Parameters<typeof foldUser>[0];

/** The user's stream, folded, and its subscription as of `now` (started_at from the stream's events). */
async function load(d: IdentityDeps, userId: string, now: Date): Promise<{ view: SubscriptionView; version: number }> {
  const events = await d.store.readStream(userStream(userId));
  const user = foldUser(events as unknown as UserEvents);
  if (!user) throw new NotFoundError('User not found');
  let started = events[0].recordedAt;
  for (const e of events as RecordedEvent[]) if (e.type === 'PlanChanged') started = (e.data as { started_at?: string }).started_at ?? e.recordedAt;
  const rec: SubscriptionRecord = { user_id: userId, plan: user.plan, started_at: new Date(started).toISOString(), ends_at: user.ends_at ?? null };
  return { view: subscriptionAt(rec, now), version: events.length - 1 };
}

export async function changeSubscription(d: IdentityDeps, userId: string, plan: PlanName, now: Date, meta: EventMetadata = {}): Promise<Written<{ kind: PlanChangeKind; from: string; to: string }>> {
  const { view, version } = await load(d, userId, now);
  const kind = decidePlanChange(view, plan);
  const r = await d.store.append(
    userStream(userId),
    [{ type: 'PlanChanged', data: { user_id: userId, plan, previous_plan: view.effective.key, started_at: now.toISOString() } }],
    version,
    { ...meta, user_id: userId },
  );
  return { value: { kind, from: view.effective.name, to: plan }, events: r.events };
}

export async function cancelSubscription(d: IdentityDeps, userId: string, now: Date, meta: EventMetadata = {}): Promise<Written<{ plan: string; expires_at: string }>> {
  const { view, version } = await load(d, userId, now);
  const { expires_at } = decideCancel(view, now);
  const r = await d.store.append(
    userStream(userId),
    [{ type: 'SubscriptionCancelled', data: { user_id: userId, plan: view.plan.key, cancelled_at: now.toISOString(), expires_at } }],
    version,
    { ...meta, user_id: userId },
  );
  return { value: { plan: view.plan.name, expires_at }, events: r.events };
}
