/** Alerts shown to a user (usage and cost thresholds): stream `alerts-<user_id>`. */
import { EventDefinitions, openAllRequired } from './types';
import { anyString, nonEmptyString } from '../schema';

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
    schema: openAllRequired({
      alert_key: nonEmptyString,
      user_id: nonEmptyString,
      title: nonEmptyString,
      message: anyString,
      severity: { enum: ['info', 'warning', 'critical'] },
      alert_type: nonEmptyString,
      billing_period: nonEmptyString,
    }),
  },
  AlertMarkedRead: {
    area: 'alerts',
    version: 1,
    schema: openAllRequired({ alert_id: { type: 'integer', minimum: 1 }, user_id: nonEmptyString }),
  },
};

export const alertStream = (userId: string) => `alerts-${userId}`;
