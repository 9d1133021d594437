/**
 * Decisions on a user's alert stream (`alerts-<user_id>`). Alerts are raised
 * by the usage meter (infra/quota/meter.ts, once per threshold, key and
 * period); an alert's id is the global position of its AlertRaised event
 * (projections/alerts.ts uses the same). The user marks an alert as read:
 * an alert that is not in the user's own stream (unknown, or another user's)
 * is "not found"; one already read needs nothing.
 */
import type { Decider } from '../decider';
import type { DomainEvent } from '../events';
import { NotFoundError } from '../errors';

export interface AlertsState {
  /** Alert id → read, for every alert raised on the stream. */
  alerts: ReadonlyMap<number, { read: boolean }>;
}

export type AlertCommand = { kind: 'mark_read'; user_id: string; alert_id: number };

export const alertDecider: Decider<AlertCommand, AlertsState> = {
  initialState: { alerts: new Map() },
  evolve(s, e) {
    if (e.type === 'AlertRaised' && e.globalPosition !== undefined) {
      const alerts = new Map(s.alerts);
      alerts.set(Number(e.globalPosition), { read: false });
      return { alerts };
    }
    if (e.type === 'AlertMarkedRead' && s.alerts.has(e.data.alert_id)) {
      const alerts = new Map(s.alerts);
      alerts.set(e.data.alert_id, { read: true });
      return { alerts };
    }
    return s;
  },
  decide(c, s): DomainEvent[] {
    const alert = s.alerts.get(c.alert_id);
    if (!alert) throw new NotFoundError('Alert not found', { alert_id: c.alert_id });
    if (alert.read) return [];
    return [{ type: 'AlertMarkedRead', data: { alert_id: c.alert_id, user_id: c.user_id } }];
  },
};
