/**
 * Usage alert rules (pure). The first time in a billing period a user's usage
 * of a limit key reaches 80 %, 95 % or 100 % of the plan's limit, one alert is
 * raised for that threshold:
 *   80 % → severity "info", 95 % → "warning", 100 % → "critical".
 * alert_type is "cost_threshold" for the monthly_cost key and
 * "usage_threshold" for every other key (calls, tokens).
 */
export const THRESHOLDS = [
  { percent: 80, severity: 'info' },
  { percent: 95, severity: 'warning' },
  { percent: 100, severity: 'critical' },
] as const;

export type Severity = (typeof THRESHOLDS)[number]['severity'];

export interface CrossedThreshold {
  alert_key: string;
  title: string;
  message: string;
  severity: Severity;
  alert_type: 'usage_threshold' | 'cost_threshold';
  percent: number;
}

const label = (key: string) => key.replace(/_/g, ' ');

/** Thresholds crossed by moving usage of `key` from `before` to `after` under `limit`. */
export function crossedThresholds(
  userId: string,
  period: string,
  key: string,
  before: number,
  after: number,
  limit: number,
): CrossedThreshold[] {
  if (!(limit > 0)) return [];
  const alertType = key === 'monthly_cost' ? 'cost_threshold' : 'usage_threshold';
  const fmt = (x: number) => (key === 'monthly_cost' ? `$${x.toFixed(2)}` : String(Math.round(x * 100) / 100));
  return THRESHOLDS.filter((t) => before < (limit * t.percent) / 100 && after >= (limit * t.percent) / 100).map(
    (t) => ({
      alert_key: `${userId}:${period}:${alertType}:${key}:${t.percent}`,
      title: t.percent >= 100 ? `${label(key)} limit reached` : `${t.percent}% of ${label(key)} used`,
      message: `You have used ${fmt(after)} of your ${fmt(limit)} ${label(key)} limit for ${period} (${Math.floor((after / limit) * 100)}%).${t.percent >= 100 ? ' Further calls are refused until the next billing period or a plan upgrade.' : ''}`,
      severity: t.severity,
      alert_type: alertType,
      percent: t.percent,
    }),
  );
}
