/** Alerts shown to a user (usage and cost thresholds): stream `alerts-<user_id>`. */
import { anyStr, EventDefinitions, obj, str } from './types';

export interface AlertRaisedData {
  /** Deterministic key, e.g. "usage_threshold:vendor_a_calls:80:2026-11", so an alert is raised once. */
  alert_key: string;
  user_id: string;
  title: string;
  message: string;
  severity: 'info' | 'warning' | 'critical';
  alert_type: string;
  billing_period: string;
}

export type AlertEvent =
  | { type: 'AlertRaised'; data: AlertRaisedData }
  | { type: 'AlertMarkedRead'; data: { alert_id: number; user_id: string } };

export const alertEvents: EventDefinitions<AlertEvent['type']> = {
  AlertRaised: {
    area: 'alerts',
    version: 1,
    schema: obj({
      alert_key: str,
      user_id: str,
      title: str,
      message: anyStr,
      severity: { enum: ['info', 'warning', 'critical'] },
      alert_type: str,
      billing_period: str,
    }),
  },
  AlertMarkedRead: {
    area: 'alerts',
    version: 1,
    schema: obj({ alert_id: { type: 'integer', minimum: 1 }, user_id: str }),
  },
};

export const alertStream = (userId: string) => `alerts-${userId}`;
